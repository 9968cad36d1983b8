import { expect } from 'chai';
import { dashboardSeries, servedSeries } from '../../support/grafana-dashboard.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
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

describe('GET /metrics: outcomes an operator alerts on', () => {
  let l2: TestServer;
  let l1: FakeL1Server;
  before(async () => {
    l1 = await new FakeL1Server().start();
    l2 = await startTestServer({ store: 'sqlite' });
  });
  after(async () => {
    await l2.close();
    await l1.stop();
  });

  /** The value of one series, NaN when it is not there. */
  const sample = (text: string, series: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.slice(series.length + 1) ?? NaN,
    );

  it('shows every outcome and every job kind at 0 before anything happened, so the first one counts as an increase', async () => {
    const fresh = await startTestServer({ store: 'sqlite' });
    try {
      const text = (await client(fresh.url).get('/metrics')).text;
      for (const series of [
        'l2_verifications_total{outcome="token_revoked"}',
        'l2_logins_total{outcome="invalid_credentials"}',
        'l2_logins_total{outcome="unavailable"}',
        'l2_job_attempts_total{kind="revocation_notice",outcome="gave_up",destination="untried"}',
        'l2_job_attempts_total{kind="activity_delivery",outcome="delivered",destination="proven"}',
        'l2_jobs{kind="document_delivery",state="abandoned"}',
        'l2_job_oldest_pending_age_seconds{kind="activity_delivery"}',
      ])
        expect(sample(text, series), series).to.equal(0);
    } finally {
      await fresh.close();
    }
  });

  it('counts verifications and logins by outcome, job attempts by kind, outcome and destination, and shows the queue, bcrypt and the event loop', async () => {
    const api = client(l2.url);
    const session = await registerUser(l2.url, 'alice', 'correct horse battery');
    await api.post('/auth/verify', { token: session });
    await api.post('/auth/verify', { token: `${session}x` });
    await api.post('/auth/verify', {});
    await api.post('/auth/login', { username: 'alice', password: 'correct horse battery' });
    await api.post('/auth/login', { username: 'alice', password: 'wrong horse battery' });
    const scoped = (await api.post('/renderers/attach', { l1_server: l1.url }, { token: session })).json
      .access_token as string;
    await api.post('/auth/logout', {}, { token: session });
    await l1.waitForNotices(1);
    await api.post('/auth/verify', { token: scoped, l1_server: l1.url });

    const text = (await api.get('/metrics')).text;
    expect(sample(text, 'l2_verifications_total{outcome="valid"}')).to.equal(1);
    expect(sample(text, 'l2_verifications_total{outcome="token_invalid"}')).to.equal(1);
    expect(sample(text, 'l2_verifications_total{outcome="invalid_request"}')).to.equal(1);
    expect(sample(text, 'l2_verifications_total{outcome="token_revoked"}')).to.equal(1);
    expect(sample(text, 'l2_logins_total{outcome="ok"}')).to.equal(1);
    expect(sample(text, 'l2_logins_total{outcome="invalid_credentials"}')).to.equal(1);
    expect(
      sample(
        text,
        'l2_job_attempts_total{kind="revocation_notice",outcome="delivered",destination="untried"}',
      ),
    ).to.equal(1);
    expect(sample(text, 'l2_bcrypt_jobs{state="running"}')).to.equal(0);
    expect(sample(text, 'l2_bcrypt_jobs{state="waiting"}')).to.equal(0);
    expect(sample(text, 'l2_bcrypt_refused_total')).to.equal(0);
    expect(text).to.match(/^l2_nodejs_eventloop_lag_seconds \d/m);
    expect(text).to.match(/^l2_nodejs_eventloop_lag_p99_seconds \d/m);
  });

  it('shows the queue by job kind, with the age of the oldest waiting job', async () => {
    await l1.stop();
    const api = client(l2.url);
    const session = await registerUser(l2.url, 'bob', 'correct horse battery');
    await api.post('/renderers/attach', { l1_server: l1.url }, { token: session });
    await api.post('/auth/logout', {}, { token: session });

    const text = (await api.get('/metrics')).text;
    expect(sample(text, 'l2_jobs{kind="revocation_notice",state="pending"}')).to.equal(1);
    expect(sample(text, 'l2_job_oldest_pending_age_seconds{kind="revocation_notice"}')).to.be.at.least(0);
    await l1.start();
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

describe('the Grafana dashboard in docs/grafana', () => {
  it('queries only series that GET /metrics serves', async () => {
    const l2 = await startTestServer({ store: 'sqlite' });
    try {
      // Histograms and the event-loop gauges appear once something was measured: one request and a moment pass.
      await client(l2.url).post('/auth/verify', { token: 'x' });
      const served = servedSeries((await client(l2.url).get('/metrics')).text);
      expect(dashboardSeries().length).to.be.greaterThan(5);
      // The store's pool series are served by a store with a pool only: postgres-service.test.ts checks those.
      for (const name of dashboardSeries())
        if (!name.startsWith('l2_store_')) expect(served.has(name), name).to.equal(true);
    } finally {
      await l2.close();
    }
  });
});
