import { expect } from 'chai';
import { StoreUnavailableError } from '../../src/application/ports/errors.js';
import type { Persistence } from '../../src/application/ports/persistence.js';
import {
  anActivity,
  anAsset,
  anAssetName,
  anIssuedToken,
  anL1Server,
  aRevocation,
  aUser,
  aUsername,
  T0,
} from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to reject.');
}

/** One call on every port, each of which must fail as "store unavailable" once the store is closed. */
const everyPort = (store: Persistence): Record<string, () => Promise<unknown>> => ({
  'health.ping': () => store.health.ping(),
  'users.create': () => store.users.create(aUser()),
  'users.create(firstSession)': () => {
    const user = aUser();
    return store.users.create(user, anIssuedToken({ username: user.username }));
  },
  'users.findByUsername': () => store.users.findByUsername(aUsername('alice')),
  'users.findProfile': () => store.users.findProfile(aUsername('alice')),
  'users.count': () => store.users.count(),
  'users.listOlder': () => store.users.listOlder(null, 10),
  'users.listNewer': () => store.users.listNewer(0, 10),
  'users.changePassword': () =>
    store.users.changePassword(
      aUsername('alice'),
      'new-hash',
      [aRevocation({ l1Server: anL1Server('https://l1.example') })],
      T0,
    ),
  'issuedTokens.add': () => store.issuedTokens.add(anIssuedToken()),
  'issuedTokens.listActiveByUser': () => store.issuedTokens.listActiveByUser(aUsername('alice'), T0),
  'revocations.revoke': () => store.revocations.revoke([aRevocation()], T0),
  'revocations.isRevoked': () => store.revocations.isRevoked(aRevocation().record.tokenHash),
  'revocations.deleteExpired': () => store.revocations.deleteExpired(T0),
  'attachments.list': () => store.attachments.list(aUsername('alice')),
  'attachments.attach': () =>
    store.attachments.attach(aUsername('alice'), anL1Server('https://l1.example'), T0, 20),
  'attachments.detach': () =>
    store.attachments.detach(aUsername('alice'), anL1Server('https://l1.example'), [aRevocation()], T0),
  'jobs.enqueue': () => store.jobs.enqueue([{ kind: 'k', payload: null }], T0),
  'jobs.claim': () => store.jobs.claim({ now: T0, leaseMs: 1000, limit: 1, leaseId: 'lease' }),
  'queueAdministration.stats': () => store.queueAdministration.stats(),
  'queueAdministration.list': () => store.queueAdministration.list({ kind: null, limit: 10 }, T0),
  'assets.findByName': () => store.assets.findByName(anAssetName('sunset')),
  'assets.listOlder': () => store.assets.listOlder({ owner: aUsername('alice'), namePrefix: 's' }, null, 10),
  'assets.listNewer': () => store.assets.listNewer({}, 0, 10),
  'assets.count': () => store.assets.count({}),
  'assets.count(owner)': () => store.assets.count({ owner: aUsername('alice') }),
  'activities.nextIdx': () => store.activities.nextIdx(),
  'activities.get': () => store.activities.get(0),
  'activities.append': () => {
    const asset = anAsset();
    return store.activities.append(anActivity({ object: asset.name }), { kind: 'create', asset });
  },
  'activities.listOlder': () => store.activities.listOlder({ actor: aUsername('alice') }, null, 10),
  'activities.listNewer': () => store.activities.listNewer({}, 0, 10),
  'activities.count': () => store.activities.count({}),
  'followers.count': () => store.followers.count({ username: aUsername('alice') }),
  'remoteKeys.get': () => store.remoteKeys.get('https://peer.example/key'),
  'instanceKeys.get': () => store.instanceKeys.get(),
  'accountRemoval.remove': () => {
    const asset = anAsset();
    return store.accountRemoval.remove(
      {
        username: aUsername('alice'),
        revocations: [aRevocation()],
        assetDeletes: [{ name: asset.name, activity: anActivity({ type: 'Delete', object: asset.name }) }],
        actorDelete: { type: 'Delete' },
      },
      T0,
    );
  },
});

export function storeHealthContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: StoreHealth and closing`, () => {
    const store = useStore(harness);

    it('answers a ping while open', async () => {
      await store().health.ping();
    });

    it('makes every port reject with StoreUnavailableError once closed', async () => {
      await store().close();

      for (const [call, run] of Object.entries(everyPort(store()))) {
        const error = await rejection(run);
        expect(error, call).to.be.instanceOf(StoreUnavailableError);
      }
    });

    it('can be closed more than once', async () => {
      await store().close();
      await store().close();
    });
  });
}
