import { expect } from 'chai';
import { client, registerUser } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

describe('GET /metrics', () => {
  let l2: TestServer;
  before(async () => (l2 = await startTestServer({ store: 'sqlite' })));
  after(async () => l2.close());

  it('answers Prometheus text with the service counts, the notice queue and requests by route', async () => {
    const token = await registerUser(l2.url, 'alice');
    await client(l2.url).post(
      '/assets',
      { name: 'sunset', content_hash: `sha256:${'a'.repeat(64)}`, media_type: 'image/png' },
      { token },
    );
    await client(l2.url).get('/assets/nothing-here', { headers: { accept: 'application/json' } });

    const response = await client(l2.url).get('/metrics');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = response.text;
    expect(text).to.match(/^l2_records\{kind="users"\} 1$/m);
    expect(text).to.match(/^l2_records\{kind="assets"\} 1$/m);
    expect(text).to.match(/^l2_records\{kind="activities"\} 1$/m);
    expect(text).to.match(/^l2_notice_jobs\{state="pending"\} 0$/m);
    expect(text).to.match(
      /^l2_http_requests_total\{method="POST",route="\/auth\/register",status="201"\} 1$/m,
    );
    // Routes are labelled by their pattern, never by the raw path.
    expect(text).to.match(/^l2_http_requests_total\{method="GET",route="\/assets\/:name",status="404"\} 1$/m);
    expect(text).not.to.contain('nothing-here');
    expect(text).to.match(/^l2_process_resident_memory_bytes \d+/m);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const METRICS_TOKEN = 'metrics-token-0123456789';
  let l2: TestServer;
  before(async () => (l2 = await startTestServer({ env: { METRICS_TOKEN } })));
  after(async () => l2.close());

  it('answers 401 without the token or with another one, and the metrics with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${METRICS_TOKEN}`]) {
      const refused = await client(l2.url).get('/metrics', {
        headers: authorization ? { authorization } : {},
      });
      expect(refused.status, authorization).to.equal(401);
      expect(refused.json.code).to.equal('unauthenticated');
      expect(refused.text).to.not.contain('l2_records');
    }
    const allowed = await client(l2.url).get('/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(allowed.status).to.equal(200);
    expect(allowed.text).to.match(/^l2_records\{kind="users"\} 0$/m);
  });
});
