// Scenario 14 (issue 36): the token endpoint with an ID token. Authorization codes for an OpenID Connect request
// (scope=openid, a nonce) are minted ahead — a signed-in browser's `GET /oauth/authorize` with prompt=none for a
// client it attached, untimed — and then redeemed at `POST /oauth/token`, each once, as fast as 64 connections go:
// that is what is timed. Each redemption reads and spends the code, checks PKCE, signs the access token (HS256),
// records it and confirms the grant, and signs an RS256 ID token (jose, the 2048-bit `id_token_signing_key`): the
// machine's RS256 signing ceiling of the same run is what the rate is read against.
//
// As in life, the codes come from many people, each signed in to a few clients: L2 keeps at most 5 live tokens per
// person and client (MAX_TOKENS_PER_L1_SERVER) and revokes the oldest beyond — with a notice to the client — so
// thousands of codes of one person would measure revocations (and race each other) instead. Each round registers
// fresh people, each attaches 20 clients (loopback origins, never contacted: nothing is revoked) and mints 4 codes
// per client. A code lives 60 s, so the codes are minted round by round, as many as the warm-up says one round
// redeems in the profile's measurement time.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_ATTACHED_L1_SERVERS, MAX_TOKENS_PER_L1_SERVER } from '../../src/domain/l1-server.js';
import { runLoad } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface TokenEndpointResults {
  /** Codes minted ahead per second (untimed for the rate: how long the preparation took). */
  readonly mintedPerSecond: number;
  /** The warm-up round, then the measured ones: each redeems a fresh set of codes, each code once. */
  readonly warmUp: LoadResult;
  readonly rounds: readonly LoadResult[];
  /** The length of the ID token of a redemption made outside the load (compared with the ceiling's). */
  readonly idTokenBytes: number;
}

/** The warm-up's codes: enough for the JIT, few enough to mint in a second or two. */
const WARM_UP_CODES = { quick: 200, full: 600 } as const;
/** Measured rounds: each mints its codes, then redeems them. */
const ROUNDS = 2;
/** Never more codes than can be minted and redeemed well within their 60 s (and 250 people registered for). */
const MAX_CODES = 20_000;
/** Concurrent registrations, and `GET /oauth/authorize`s while minting. */
const MINTERS = 8;

/** One PKCE pair for every code: the verifier's check costs the same whichever verifier it is. */
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

/** A signed-in person and the client a code is for (an L1 server URL client: its origin, no path). */
interface Grantor {
  readonly session: string;
  readonly client: string;
}

/** Codes per person and client: the attach token is the first of the 5 live tokens L2 keeps without revoking. */
const CODES_PER_CLIENT = MAX_TOKENS_PER_L1_SERVER - 1;
const CODES_PER_PERSON = MAX_ATTACHED_L1_SERVERS * CODES_PER_CLIENT;

async function postJson(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`POST ${url}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as Record<string, unknown>;
}

let people = 0;
/** A fresh person, registered (and so signed in), who attaches every client a person may attach. */
async function grantors(base: string, password: string): Promise<Grantor[]> {
  const username = `oidc_${process.pid}_${people++}`;
  const { access_token: session } = await postJson(`${base}/auth/register`, { username, password });
  if (typeof session !== 'string') throw new Error(`registering ${username}: no token`);
  const clients = Array.from({ length: MAX_ATTACHED_L1_SERVERS }, (_, n) => `http://127.0.0.1:${20_000 + n}`);
  for (const client of clients) await postJson(`${base}/renderers/attach`, { l1_server: client }, session);
  return clients.map((client) => ({ session, client }));
}

/** What the client's callback receives: a code for an OpenID Connect request with its own nonce. */
async function mintCode(base: string, grantor: Grantor): Promise<string> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: grantor.client,
    redirect_uri: `${grantor.client}/auth/callback`,
    state: randomBytes(16).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid',
    nonce: randomBytes(16).toString('base64url'),
    prompt: 'none',
  });
  const answer = await fetch(`${base}/oauth/authorize?${query.toString()}`, {
    headers: { cookie: `l2_token=${grantor.session}` },
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  const code = location === null ? null : new URL(location).searchParams.get('code');
  if (answer.status !== 303 || code === null)
    throw new Error(`minting a code: ${answer.status} ${location ?? (await answer.text())}`);
  return code;
}

/** The form an L1 server posts (no client authentication: an L1 server URL client). */
const redemption = (grantor: Grantor, code: string): string =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: `${grantor.client}/auth/callback`,
    code_verifier: verifier,
    client_id: grantor.client,
  }).toString();

/**
 * `count` codes, from fresh people (registered first, untimed), minted `MINTERS` at a time and written as
 * redemption bodies one a line, client after client, so that no two bodies in flight are of one person and client.
 */
async function mintBodies(base: string, password: string, count: number, file: string): Promise<number> {
  const everyone: Grantor[] = [];
  for (let person = 0; person * CODES_PER_PERSON < count; person += MINTERS) {
    const batch = Math.min(MINTERS, Math.ceil(count / CODES_PER_PERSON) - person);
    const registered = await Promise.all(Array.from({ length: batch }, () => grantors(base, password)));
    everyone.push(...registered.flat());
  }
  const wanted = Array.from({ length: count }, (_, n) => everyone[n % everyone.length]!);
  const started = process.hrtime.bigint();
  const bodies: string[] = [];
  while (bodies.length < count) {
    const batch = wanted.slice(bodies.length, bodies.length + MINTERS);
    const codes = await Promise.all(batch.map((grantor) => mintCode(base, grantor)));
    bodies.push(...codes.map((code, n) => redemption(batch[n]!, code)));
  }
  writeFileSync(file, bodies.join('\n'));
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** Redeems one code outside the load and checks that the answer carries an RS256 ID token. */
async function idTokenOfOneRedemption(base: string, password: string): Promise<string> {
  const [grantor] = await grantors(base, password);
  const code = await mintCode(base, grantor!);
  const answer = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: redemption(grantor!, code),
  });
  const body = (await answer.json()) as { id_token?: string; scope?: string };
  const header = body.id_token?.split('.')[0];
  const alg = header && (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }).alg;
  if (answer.status !== 200 || alg !== 'RS256' || body.scope?.split(' ').includes('openid') !== true)
    throw new Error(`a code of an OpenID Connect request gave no RS256 ID token: ${JSON.stringify(body)}`);
  return body.id_token!;
}

/** Mints `count` codes into `file`, then redeems every one of them, timed; fails unless every one gave a 200. */
async function round(base: string, password: string, count: number, file: string) {
  const mintedPerSecond = await mintBodies(base, password, count, file);
  await sleep(250); // as measure() settles after its warm-up
  const load = await runLoad({
    url: `${base}/oauth/token`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    bodiesFile: file,
    amount: count,
    connections: CONNECTIONS.throughput,
    // How long the bench waits for the run, not how long it lasts (`amount` ends it): the codes' 60 s.
    seconds: 60,
  });
  if (load.ok !== count)
    throw new Error(`${count} codes, ${load.ok} redeemed: ${JSON.stringify(load.statusCodes)}`);
  return { mintedPerSecond, load };
}

/** `base` is where L2 listens; the people it registers get `password`. */
export async function tokenEndpoint(
  base: string,
  password: string,
  profile: Profile,
  scratchDir: string,
): Promise<TokenEndpointResults> {
  const idToken = await idTokenOfOneRedemption(base, password);
  const file = join(scratchDir, 'token-endpoint-bodies.txt');
  const warm = await round(base, password, WARM_UP_CODES[profile.name], file);
  // As many codes as the warm-up's rate redeems in the profile's measurement time, and no more than are minted in
  // 25 s: the first code minted must still be alive (60 s) when the last one is redeemed.
  const perRound = Math.round(warm.load.rps * profile.throughputSeconds);
  const mintable = Math.round(warm.mintedPerSecond * 25);
  const count = Math.min(MAX_CODES, mintable, Math.max(CONNECTIONS.throughput * 2, perRound));
  const rounds: LoadResult[] = [];
  const minted: number[] = [warm.mintedPerSecond];
  for (let n = 0; n < ROUNDS; n++) {
    const measured = await round(base, password, count, file);
    rounds.push(measured.load);
    minted.push(measured.mintedPerSecond);
  }
  return {
    mintedPerSecond: minted.reduce((a, b) => a + b, 0) / minted.length,
    warmUp: warm.load,
    rounds,
    idTokenBytes: idToken.length,
  };
}
