// Shared fixtures for the registry (API.md §3) and ActivityPub (API.md §4) HTTP tests.
import { createHash, generateKeyPair } from 'node:crypto';
import { expect } from 'chai';
import type { Clock } from '../../../../src/application/ports/clock.js';
import type { KeyPair, KeyPairGenerator } from '../../../../src/application/ports/key-pair-generator.js';
import { registerUser, type client, type HttpResponse } from '../../../support/http.js';
import { TEST_PUBLIC_URL, type TestServer, type TestServerOptions } from '../../../support/test-server.js';
import { startServer as startSharedKeyServer, type StoreKind } from '../helpers.js';

export { expectProblem, isoMillis, keysOf, STORES } from '../helpers.js';
export type { StoreKind } from '../helpers.js';

export const BASE = TEST_PUBLIC_URL;
export const AS = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_V1 = 'https://w3id.org/security/v1';
export const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
export const AP_ACCEPT = 'application/activity+json';
export const LD_ACCEPT = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
export const AP_CONTENT_TYPE = /^application\/activity\+json(\s*;\s*charset=utf-8)?$/i;

const POOL_SIZE = 4;
let pool: Promise<KeyPair[]> | null = null;

/** Four real RSA-2048 key pairs, generated once per test run (in parallel, off the event loop). */
function keyPool(): Promise<KeyPair[]> {
  pool ??= Promise.all(
    Array.from(
      { length: POOL_SIZE },
      () =>
        new Promise<KeyPair>((resolve, reject) =>
          generateKeyPair(
            'rsa',
            {
              modulusLength: 2048,
              publicKeyEncoding: { type: 'spki', format: 'pem' },
              privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
            },
            (error, publicKeyPem, privateKeyPem) =>
              error ? reject(error) : resolve({ publicKeyPem, privateKeyPem }),
          ),
        ),
    ),
  );
  return pool;
}

/**
 * Hands the pool's key pairs out in turn, per server: the first four users of a server have four different real
 * keys (so "signed by alice, not by bob" is observable) without paying key generation for every registration.
 */
class PooledKeyPairs implements KeyPairGenerator {
  private next = 0;
  async generate(): Promise<KeyPair> {
    const keys = await keyPool();
    return keys[this.next++ % keys.length]!;
  }
}

/** The system time, but never the same millisecond twice: "updated_at moves" needs no sleeping. */
class StrictlyIncreasingClock implements Clock {
  private last = 0;
  now(): Date {
    this.last = Math.max(Date.now(), this.last + 1);
    return new Date(this.last);
  }
}

/** A real server on `store` whose users get distinct real RSA keys from a small pool. */
export function startServer(
  store: StoreKind,
  options: Omit<TestServerOptions, 'store'> = {},
): Promise<TestServer> {
  return startSharedKeyServer(store, {
    ...options,
    override: {
      keyPairs: () => new PooledKeyPairs(),
      clock: () => new StrictlyIncreasingClock(),
      ...options.override,
    },
  });
}

export type Api = ReturnType<typeof client>;

/** `sha256:` + the hex SHA-256 of `seed`: a valid, distinct content hash per seed. */
export const contentHash = (seed: string): string =>
  `sha256:${createHash('sha256').update(seed).digest('hex')}`;

export interface AssetInput {
  name: string;
  content_hash: string;
  media_type: string;
  url?: string | null;
  description?: string;
  alt_text?: string | null;
  sensitive?: boolean | string;
  tags?: string[] | string;
}

/** A valid registration body for `name` (fields can be overridden or removed with `undefined`). */
export function assetBody(name: string, overrides: Partial<AssetInput> = {}): Record<string, unknown> {
  return {
    name,
    content_hash: contentHash(name),
    media_type: 'image/png',
    url: `https://cdn.example/${name}.png`,
    description: `The asset ${name}`,
    tags: ['art'],
    ...overrides,
  };
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * The `digestMultibase` of a `sha256:<hex>` content hash, computed here independently of the service: the
 * multihash (0x12 = sha2-256, 0x20 = 32 bytes, then the digest) in base58btc with the multibase prefix `z`.
 */
export function multibaseSha256(contentHash: string): string {
  const bytes = Buffer.concat([
    Buffer.from([0x12, 0x20]),
    Buffer.from(contentHash.slice('sha256:'.length), 'hex'),
  ]);
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let digits = '';
  while (value > 0n) {
    digits = BASE58[Number(value % 58n)] + digits;
    value /= 58n;
  }
  return `z${digits}`; // the multihash starts with 0x12: no leading zero bytes to carry over as '1's
}

/** Registers an asset through the API and returns the 201 body (asset + activity). */
export async function createAsset(
  api: Api,
  token: string,
  name: string,
  overrides: Partial<AssetInput> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  const response = await api.post('/assets', assetBody(name, overrides), { token });
  expect(response.status, `POST /assets ${name}: ${response.text}`).to.equal(201);
  return response.json;
}

/** Users registered through the API, by name → session token. */
export async function registerUsers(url: string, ...names: string[]): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const name of names) tokens[name] = await registerUser(url, name);
  return tokens;
}

/** The path (with query) of an absolute URL the service emitted, to fetch it from the test server. */
export function localPath(absolute: string): string {
  expect(absolute, 'an absolute URL under PUBLIC_URL').to.be.a('string');
  expect(absolute.startsWith(`${BASE}/`), `${absolute} starts with ${BASE}/`).to.equal(true);
  return absolute.slice(BASE.length);
}

/** GET with an Accept header. */
export const getAs = (api: Api, path: string, accept: string): Promise<HttpResponse> =>
  api.get(path, { headers: { accept } });

/** Asserts the response is an ActivityStreams document and returns it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectAp(response: HttpResponse, status = 200): any {
  expect(response.status, response.text).to.equal(status);
  expect(response.headers.get('content-type')).to.match(AP_CONTENT_TYPE);
  return JSON.parse(response.text);
}

/** Asserts an HTML page with `status`. */
export function expectHtml(response: HttpResponse, status = 200): string {
  expect(response.status, response.text.slice(0, 300)).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^text\/html/);
  return response.text;
}

/** Asserts the response lists Accept in Vary. */
export function expectVaryAccept(response: HttpResponse): void {
  const vary = (response.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
  expect(vary, `Vary of ${response.status}`).to.include('accept');
}

/** Follows a JSON list's `next` links from `path` to the end; returns every page. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function walkNext(api: Api, path: string): Promise<any[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const pages: any[] = [];
  let next: string | null = path;
  while (next !== null) {
    const response = await api.get(next, { headers: { accept: 'application/json' } });
    expect(response.status, `${next}: ${response.text}`).to.equal(200);
    pages.push(response.json);
    expect(pages.length, 'the walk ends').to.be.below(200);
    next = response.json.next === null ? null : localPath(response.json.next);
  }
  return pages;
}

/** Follows `prev` links from the last page of a walk back to the first; returns pages in the order visited. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function walkPrev(api: Api, from: any): Promise<any[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const pages: any[] = [from];
  let prev: string | null = from.prev;
  while (prev !== null) {
    const response = await api.get(localPath(prev), { headers: { accept: 'application/json' } });
    expect(response.status, `${prev}: ${response.text}`).to.equal(200);
    pages.push(response.json);
    expect(pages.length, 'the walk ends').to.be.below(200);
    prev = response.json.prev;
  }
  return pages;
}
