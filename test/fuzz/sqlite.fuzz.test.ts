// The same properties on the SQLite store, mixed: any route, any path, odd headers, bodies and inboxes.
import fc from 'fast-check';
import {
  bodyRequest,
  concurrentBatch,
  headerRequest,
  inboxRequest,
  pathRequest,
  routeRequest,
  signedInboxRequest,
} from './requests.js';
import { fuzz, RUNS, tally, World } from './support.js';

describe('fuzz: everything on the SQLite store', function () {
  this.timeout(30 * 60_000);
  let world: World;

  before(async () => {
    // Behind a trusted proxy, so the fuzzed X-Forwarded-For headers reach the client-address rules too.
    world = await World.start('sqlite', { peer: true, env: { TRUST_PROXY: 'true' } });
  });
  after(async () => {
    console.log(
      `      fuzz totals so far: ${tally.cases} cases, ${tally.requests} requests (FUZZ_RUNS=${RUNS})`,
    );
    await world?.close();
  });

  it('answers routes, paths, headers, bodies and activities below 500 on SQLite', async () => {
    const any = fc.oneof(
      routeRequest(world),
      pathRequest(world),
      headerRequest(world),
      bodyRequest(world),
      inboxRequest(world),
      signedInboxRequest(world),
    );
    await fuzz('mixed', world, any);
  });

  it('answers concurrent writes below 500 on SQLite', async () => {
    await fuzz('concurrent', world, concurrentBatch(world), { concurrent: true });
  });
});
