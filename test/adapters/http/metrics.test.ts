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
