// Property-based fuzzing of request bodies (JSON, forms, activities) on the memory store.
import { bodyRequest, formRequest, inboxRequest, signedInboxRequest } from './requests.js';
import { fuzz, RUNS, tally, World } from './support.js';

describe('fuzz: bodies, content types and encodings (memory)', function () {
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

  it('answers adversarial bodies (invalid UTF-8, BOM, charsets, compression, nesting, __proto__, huge numbers, 10,000-element arrays) below 500', async () => {
    await fuzz('bodies', world, bodyRequest(world));
  });

  it('answers form posts that pass the CSRF check (login with next, register, asset and account forms) below 500', async () => {
    await fuzz('forms', world, formRequest(world));
  });

  it('answers adversarial activities and signatures at both inboxes below 500', async () => {
    await fuzz('inboxes', world, inboxRequest(world));
  });

  it('answers validly signed activities with adversarial content below 500', async () => {
    await fuzz('signed inboxes', world, signedInboxRequest(world));
  });
});
