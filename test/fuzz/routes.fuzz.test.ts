// Property-based fuzzing of every route (paths, queries, methods, headers, credentials) on the memory store.
import { concurrentBatch, csrfRequest, headerRequest, pathRequest, routeRequest } from './requests.js';
import { expect } from 'chai';
import { fuzz, RUNS, send, tally, World } from './support.js';

describe('fuzz: routes, paths and headers (memory)', function () {
  this.timeout(30 * 60_000);
  let world: World;

  before(async () => {
    world = await World.start('memory', { peer: true });
  });
  after(async () => {
    console.log(
      `      fuzz totals so far: ${tally.cases} cases, ${tally.requests} requests (FUZZ_RUNS=${RUNS})`,
    );
    await world?.close();
  });

  it('serves every page route and static file it fuzzes (that list is kept by hand)', async () => {
    const pages = world.routes.filter((r) => r.kind === 'page' || r.kind === 'static');
    expect(pages.length).to.be.greaterThan(8);
    for (const route of pages) {
      const path = route.template.replace('{name}', '{asset}').replace('{idx}', '0');
      const { response } = await send(world, {
        method: route.method,
        path,
        headers: [
          ['Accept', 'text/html'],
          ['Cookie', 'l2_token={token}; l2_csrf={csrfSeed}'],
          ['X-CSRF-Token', '{csrf}'],
        ],
      });
      expect(response.status, `${route.method} ${path}`).to.not.be.oneOf([404, 405]);
    }
  });

  it('answers every served route below 500, with fuzzed parameters, queries, methods, Accept and credentials', async () => {
    await fuzz('every route', world, routeRequest(world));
  });

  it('answers arbitrary paths (traversal, %00, invalid UTF-8, very long, unicode, static files) below 500', async () => {
    await fuzz('arbitrary paths', world, pathRequest(world));
  });

  it('answers requests with odd, very long and repeated headers below 500', async () => {
    await fuzz('odd headers', world, headerRequest(world));
  });

  it('refuses cookie-authenticated unsafe requests without a valid CSRF token with 403 csrf_failed', async () => {
    await fuzz('cookie without CSRF', world, csrfRequest(world), {
      extra: (response) => {
        if (response.status !== 403) return `expected 403 csrf_failed, got ${response.status}`;
        const json = /json/.test(String(response.headers['content-type']));
        if (json && JSON.parse(response.text).code !== 'csrf_failed')
          return `expected code csrf_failed, got ${response.text}`;
        return null;
      },
    });
  });

  it('answers concurrent writes (the same one repeated, or mixed with reads and activities) below 500', async () => {
    await fuzz('concurrent', world, concurrentBatch(world), { concurrent: true });
  });
});
