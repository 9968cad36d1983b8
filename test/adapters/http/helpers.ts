import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import type { KeyPair, KeyPairGenerator } from '../../../src/application/ports/key-pair-generator.js';
import type { HttpResponse } from '../../support/http.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../../support/test-server.js';

export const STORES = ['memory', 'sqlite'] as const;
export type StoreKind = (typeof STORES)[number];

export const DAY_SECONDS = 24 * 60 * 60;
export const THIRTY_DAYS_SECONDS = 30 * DAY_SECONDS;
export const PASSWORD = 'correct horse battery';

let sharedKeyPair: KeyPair | null = null;

/**
 * One real RSA-2048 key pair, generated once and handed to every registration. Generating a fresh pair costs
 * ~100–200 ms, which would dominate an HTTP suite that registers hundreds of users; sections 1 and 2 of the
 * contract never expose the key pair, so sharing it changes nothing these tests observe.
 */
const reusedKeyPairs: KeyPairGenerator = {
  async generate() {
    if (!sharedKeyPair) {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      sharedKeyPair = { publicKeyPem: publicKey, privateKeyPem: privateKey };
    }
    return sharedKeyPair;
  },
};

/** A real test server on `store`, with the shared key pair (plus any further overrides). */
export function startServer(
  store: StoreKind,
  options: Omit<TestServerOptions, 'store'> = {},
): Promise<TestServer> {
  return startTestServer({
    ...options,
    store,
    override: { keyPairs: () => reusedKeyPairs, ...options.override },
  });
}

/** The decoded JSON payload of a JWT (no verification). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function jwtPayload(token: string): any {
  const part = token.split('.')[1];
  if (part === undefined) throw new Error(`not a JWT: ${token}`);
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** Asserts an RFC 9457 problem with the API.md status and code, and returns its body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectProblem(response: HttpResponse, status: number, code: string): any {
  expect(response.status, response.text).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
  const body = response.json;
  expect(body).to.include({ type: 'about:blank', status, code });
  expect(body.title).to.be.a('string').and.not.equal('');
  expect(body.detail).to.be.a('string').and.not.equal('');
  return body;
}

/** The `Set-Cookie` lines of a response for one cookie name. */
export function setCookies(response: HttpResponse, name: string): string[] {
  return response.headers.getSetCookie().filter((line) => line.startsWith(`${name}=`));
}

/** Parses an ISO 8601 UTC timestamp strictly (the `…T…Z` form API.md fixes). */
export function isoMillis(value: unknown): number {
  expect(value)
    .to.be.a('string')
    .and.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
  return Date.parse(value as string);
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Fields a JSON body has, sorted — to compare a body's shape exactly. */
export const keysOf = (body: object): string[] => Object.keys(body).sort();
