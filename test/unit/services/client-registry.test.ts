// ClientRegistry (API.md §2.5): which client_ids are looked up, how long a document (and a 404) is kept — by its
// max-age on the application's clock, never past a day — and that a refusal is never kept.
import { expect } from 'chai';
import { LruCacheFactory } from '../../../src/adapters/cache/lru-cache-factory.js';
import type {
  ClientDocumentSource,
  FetchedClientDocument,
} from '../../../src/application/ports/client-document-source.js';
import { ClientRegistry } from '../../../src/application/services/client-registry.js';
import { FixedClock } from '../../support/fixed-clock.js';

const ID = 'https://app.example/client.json';
const DOCUMENT = { client_id: ID, redirect_uris: ['https://app.example/cb'] };

/** A source that answers what the test scripts, counting the fetches of each URL. */
class ScriptedSource implements ClientDocumentSource {
  answer: FetchedClientDocument = { kind: 'json', value: DOCUMENT, cacheControl: null };
  readonly fetched: string[] = [];
  async fetchJson(url: string): Promise<FetchedClientDocument> {
    this.fetched.push(url);
    return this.answer;
  }
}

describe('ClientRegistry', () => {
  let source: ScriptedSource;
  let clock: FixedClock;
  let registry: ClientRegistry;

  beforeEach(() => {
    source = new ScriptedSource();
    clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
    registry = new ClientRegistry(source, clock, new LruCacheFactory(), false);
  });

  it('takes a client_id without a path, or that normalisation changes, as an L1 server URL without fetching', async () => {
    for (const clientId of ['https://l1.example', 'https://L1.example/studio', 'http://l1.example/studio']) {
      const client = await registry.resolve(clientId);
      expect(client.ok && client.value.kind, clientId).to.equal('url');
    }
    expect(source.fetched).to.deep.equal([]);
  });

  it('keeps a document for its max-age on the clock, then fetches it again', async () => {
    source.answer = { kind: 'json', value: DOCUMENT, cacheControl: 'max-age=300' };
    expect((await registry.resolve(ID)).ok).to.equal(true);
    clock.advance(299_000);
    await registry.resolve(ID);
    expect(source.fetched).to.have.length(1);
    clock.advance(2_000);
    const again = await registry.resolve(ID);
    expect(again.ok && again.value.kind).to.equal('document');
    expect(source.fetched).to.have.length(2);
  });

  it('keeps a document at most a day, whatever its max-age says', async () => {
    source.answer = { kind: 'json', value: DOCUMENT, cacheControl: 'max-age=31536000' };
    await registry.resolve(ID);
    clock.advance(24 * 3600 * 1000 - 1000);
    await registry.resolve(ID);
    expect(source.fetched).to.have.length(1);
    clock.advance(2_000);
    await registry.resolve(ID);
    expect(source.fetched).to.have.length(2);
  });

  it('never keeps a refusal: the next lookup fetches again and a fixed document works at once', async () => {
    source.answer = {
      kind: 'json',
      value: { ...DOCUMENT, client_id: 'https://else.example/c' },
      cacheControl: 'max-age=600',
    };
    expect((await registry.resolve(ID)).ok).to.equal(false);
    source.answer = { kind: 'refused', reason: 'answered 500' };
    expect((await registry.resolve(ID)).ok).to.equal(false);
    source.answer = { kind: 'json', value: DOCUMENT, cacheControl: 'max-age=600' };
    expect((await registry.resolve(ID)).ok).to.equal(true);
    expect(source.fetched).to.have.length(3);
  });

  it('takes a 404 as an L1 server URL client, kept for its own max-age', async () => {
    source.answer = { kind: 'absent', cacheControl: 'max-age=60' };
    const client = await registry.resolve(ID);
    expect(client.ok && client.value).to.deep.equal({ kind: 'url', clientId: ID });
    await registry.resolve(ID);
    expect(source.fetched).to.have.length(1);
  });
});
