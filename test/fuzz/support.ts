// Property-based fuzzing of the HTTP service: the request model, the sender, the oracle and the arbitraries.
//
// A generated request is a plain, serialisable object (method, raw path, header pairs, body parts), so fast-check
// prints a failing one as it is. Values that only exist at run time (the session token, its jti, the CSRF token,
// the current user and asset) are written as placeholders — `{token}`, `{jti}`, `{csrf}`, … — and filled in just
// before sending; a failure also prints the request exactly as it went over the wire. Long values are written
// `{*5000:a}` (5000 times `a`) so a counterexample stays readable.
//
// Knobs: FUZZ_RUNS (runs per property), FUZZ_SEED (replay a run: fast-check prints the seed of a failure),
// FUZZ_SHRINK=0 (report the first failing case as found, without shrinking it).
import { createHash, sign, type KeyObject } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { loadStaticFiles } from '../../src/adapters/views/static-files.js';
import { PASSWORD, startServer, type StoreKind } from '../adapters/http/helpers.js';
import { FedifyPeer } from '../support/fedify-peer.js';
import { forgeToken, validClaims } from '../support/forge.js';
import type { TestServer } from '../support/test-server.js';

// ---------------------------------------------------------------------------------------------------------------
// How many cases

/** Runs per property when FUZZ_RUNS is not set: sized so the whole fuzz suite adds about 30 s to `npm test`. */
export const DEFAULT_RUNS = 400;

/** Runs per property: `FUZZ_RUNS` (as `npm run fuzz` sets it), else DEFAULT_RUNS. */
export const RUNS = ((): number => {
  const n = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_RUNS;
})();

// ---------------------------------------------------------------------------------------------------------------
// The request model

/** A piece of a body: text (placeholders filled, then encoded), a repeated text, or raw bytes. */
export type Part = string | { readonly repeat: string; readonly times: number } | { readonly hex: string };

export interface FuzzBody {
  readonly parts: readonly Part[];
  /** How text parts become bytes; `latin1` sends U+0080–U+00FF as single bytes (invalid UTF-8). */
  readonly charset?: 'utf8' | 'utf16le' | 'latin1';
  /** A byte-order mark before everything. */
  readonly bom?: 'utf8' | 'utf16le' | 'utf16be';
  /** Compress the bytes (the Content-Encoding header, if any, is among the request's headers). */
  readonly compress?: 'gzip' | 'deflate' | 'br';
  /** Send with Transfer-Encoding: chunked instead of Content-Length. */
  readonly chunked?: boolean;
}

/** One header line. */
export type Pair = readonly [string, string];
const none: Pair[] = [];
const pair = (name: string, value: string): Pair => [name, value];

/** fc.oneof with the result type given, so branches of different literal shapes unify. */
export const pick = <T>(...arbs: fc.MaybeWeightedArbitrary<T>[]): fc.Arbitrary<T> =>
  fc.oneof(...arbs) as fc.Arbitrary<T>;

export interface FuzzRequest {
  readonly method: string;
  /** Path and query exactly as written on the request line (after placeholders are filled). */
  readonly path: string;
  /** Header pairs in order; a name may repeat. Host is added unless one is given. */
  readonly headers: readonly Pair[];
  readonly body?: FuzzBody;
}

/** What actually went over the wire. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly Pair[];
  readonly body: Buffer;
}

export interface FuzzResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The world: one real server, a signed-in user with a live asset, kept usable while requests revoke and delete

/** A route as the fuzzer sees it: method, OpenAPI-style template, and what its body may be. */
export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly template: string;
  readonly kind: 'json' | 'page' | 'inbox' | 'static';
  /** Needs a signed-in caller (bearer or cookie). */
  readonly secured: boolean;
  /** The body's properties and their JSON-schema types, from /openapi.json. */
  readonly fields: Readonly<Record<string, string>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Page routes (`PAGE` in src/adapters/http/koa/routes/*.ts): served, but not in /openapi.json. The case-folding
 * redirect (`/^\/users\/([^/]*[A-Z][^/]*)(\/.*)?$/`) is reached through the `{username}` values (`ALICE`).
 */
const PAGE_ROUTES: readonly Pick<RouteSpec, 'method' | 'template' | 'secured'>[] = [
  { method: 'GET', template: '/account', secured: true },
  { method: 'GET', template: '/login', secured: false },
  { method: 'GET', template: '/register', secured: false },
  { method: 'GET', template: '/assets/new', secured: true },
  { method: 'GET', template: '/assets/{name}/edit', secured: true },
  { method: 'POST', template: '/assets/{name}', secured: true },
  { method: 'GET', template: '/activity/{idx}', secured: false },
];

/** The form fields of the page-only POST /assets/{name} (an HTML form's PATCH or DELETE). */
const METHOD_OVERRIDE_FIELDS = { _method: 'string', description: 'string', tags: 'string', _csrf: 'string' };

/** The static files the server holds in memory (the map is fixed at start-up). */
export const STATIC_PATHS: readonly string[] = [...loadStaticFiles().keys()];

/** The routes: every JSON route from the served /openapi.json, the page routes, and the static files. */
async function readRoutes(url: string): Promise<RouteSpec[]> {
  const doc: Json = await (await fetch(`${url}/openapi.json`)).json();
  const schemaOf = (schema: Json): Json =>
    schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema;
  const routes: RouteSpec[] = [];
  for (const [template, operations] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(operations)) {
      const content = op.requestBody?.content ?? {};
      const first = Object.keys(content)[0];
      const schema = first ? schemaOf(content[first].schema) : null;
      const fields: Record<string, string> = {};
      for (const [name, property] of Object.entries<Json>(schema?.properties ?? {})) {
        const type = property.type;
        fields[name] = Array.isArray(type) ? String(type[0]) : String(type ?? 'string');
      }
      routes.push({
        method: method.toUpperCase() as RouteSpec['method'],
        template,
        kind: /inbox$/.test(template) ? 'inbox' : 'json',
        secured: Array.isArray(op.security) && op.security.length > 0,
        fields,
      });
    }
  }
  if (routes.length < 30) throw new Error(`/openapi.json lists only ${routes.length} routes`);
  for (const page of PAGE_ROUTES) {
    const override = page.method === 'POST';
    routes.push({ ...page, kind: 'page', fields: override ? METHOD_OVERRIDE_FIELDS : {} });
  }
  for (const path of STATIC_PATHS) {
    routes.push({ method: 'GET', template: path, kind: 'static', secured: false, fields: {} });
  }
  return routes;
}

/** The values placeholders stand for. */
interface Secrets {
  user: string;
  password: string;
  token: string;
  jti: string;
  asset: string;
  csrfSeed: string;
  csrf: string;
  /** The CSRF token of a signed-out form (login, register) for the same l2_csrf cookie. */
  csrfOut: string;
}

/** `{*5000:a}` stands for 5000 times `a`: long values stay short in a printed counterexample. */
const REPEAT = /\{\*(\d+):([^}]*)\}/g;
const PLACEHOLDER = /\{(user|password|token|jti|asset|csrfSeed|csrfOut|csrf|date|peer)\}/g;
const CONTENT_HASH = `sha256:${'0'.repeat(64)}`;

export class World {
  readonly routes: RouteSpec[] = [];
  private secrets!: Secrets;
  private users = 0;
  private assets = 0;
  /** Requests sent by properties (not the world's own bookkeeping). */
  sent = 0;
  /** A remote actor on 127.0.0.1 (a Fedify peer) whose key signs inbox requests carrying `{signature}`. */
  private peer: { instance: FedifyPeer; key: KeyObject } | null = null;

  private constructor(
    readonly server: TestServer,
    readonly store: StoreKind,
  ) {}

  get url(): string {
    return this.server.url;
  }

  /** A real server on `store`, with `alice` signed in and owning an asset. */
  static async start(
    store: StoreKind,
    options: { peer?: boolean; env?: Record<string, string> } = {},
  ): Promise<World> {
    const server = await startServer(store, {
      // No background work: a Follow's Accept stays queued instead of being delivered while the fuzzer runs.
      background: false,
      // Every request comes from 127.0.0.1: without this, fifty wrong passwords would lock the password checks
      // (login, password change, account deletion) for the rest of the run. The per-username limit still holds.
      env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '1000000', ...options.env },
    });
    const world = new World(server, store);
    world.routes.push(...(await readRoutes(server.url)));
    await world.newUser('alice');
    if (options.peer) {
      const instance = await FedifyPeer.start();
      world.peer = { instance, key: await instance.privateKeyObject() };
    }
    return world;
  }

  async close(): Promise<void> {
    await this.server.close();
    await this.peer?.instance.close();
  }

  /** The draft-cavage Signature header for a request as sent, by the peer's key (rsa-sha256). */
  signature(method: string, path: string, headers: readonly Pair[]): string {
    if (!this.peer) throw new Error('this world has no peer to sign with');
    const covered = ['(request-target)', 'host', 'date', 'digest'];
    const valueOf = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
    const signed = covered
      .map((name) =>
        name === '(request-target)'
          ? `${name}: ${method.toLowerCase()} ${path}`
          : `${name}: ${valueOf(name)}`,
      )
      .join('\n');
    const value = sign('sha256', Buffer.from(signed), this.peer.key).toString('base64');
    return `keyId="${this.peer.instance.keyId}",algorithm="rsa-sha256",headers="${covered.join(' ')}",signature="${value}"`;
  }

  /** Replaces the placeholders in `text`. */
  fill(text: string): string {
    return text
      .replace(REPEAT, (_, times: string, unit: string) => unit.repeat(Number(times)))
      .replace(PLACEHOLDER, (_, name: string) =>
        name === 'date'
          ? new Date().toUTCString()
          : name === 'peer'
            ? (this.peer?.instance.actorId ?? 'http://127.0.0.1:1/users/nobody')
            : this.secrets[name as keyof Secrets],
      );
  }

  private async call(
    method: string,
    path: string,
    init: { json?: unknown; headers?: Record<string, string> },
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      redirect: 'manual',
    });
    return { status: response.status, text: await response.text(), headers: response.headers };
  }

  /** Registers a user (the first is `alice`), signs it in, fetches a CSRF token and registers an asset. */
  private async newUser(name?: string): Promise<void> {
    const user = name ?? `fz_${this.store}_${++this.users}`;
    const registered = await this.call('POST', '/auth/register', {
      json: { username: user, password: PASSWORD },
    });
    if (registered.status !== 201) throw new Error(`cannot register ${user}: ${registered.text}`);
    const token = JSON.parse(registered.text).access_token as string;
    const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;
    const page = await this.call('GET', '/account', {
      headers: { cookie: `l2_token=${token}`, accept: 'text/html' },
    });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
    const seed = /l2_csrf=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))?.[1];
    if (!csrf || !seed) throw new Error(`no CSRF token on /account (${page.status})`);
    const login = await this.call('GET', '/login', {
      headers: { cookie: `l2_csrf=${seed}`, accept: 'text/html' },
    });
    const csrfOut = /name="_csrf" value="([^"]+)"/.exec(login.text)?.[1];
    if (!csrfOut) throw new Error(`no CSRF token on /login (${login.status})`);
    this.secrets = { user, password: PASSWORD, token, jti, asset: '', csrfSeed: seed, csrf, csrfOut };
    await this.newAsset();
  }

  private async newAsset(): Promise<void> {
    const name = `fz-${this.secrets.user}-${++this.assets}`;
    const created = await this.call('POST', '/assets', {
      json: { name, content_hash: CONTENT_HASH, media_type: 'image/png', tags: ['fuzz'] },
      headers: { authorization: `Bearer ${this.secrets.token}` },
    });
    // The session was ended by the same batch that deleted the asset: start over with a new user.
    if (created.status === 401) return this.newUser();
    if (created.status !== 201) throw new Error(`cannot register asset ${name}: ${created.text}`);
    this.secrets.asset = name;
  }

  /**
   * After a request that changed something, makes sure the session, the password and the asset still hold:
   * a fuzzed logout, revoke, password change, account or asset deletion may have succeeded.
   */
  async repair(results: readonly { sent: SentRequest; response: FuzzResponse }[]): Promise<void> {
    const changes = results.filter(
      ({ sent, response }) => !['GET', 'HEAD', 'OPTIONS'].includes(sent.method) && response.status < 400,
    );
    if (changes.length === 0) return;
    const bearer = { authorization: `Bearer ${this.secrets.token}` };
    const me = await this.call('GET', '/auth/me', { headers: bearer });
    if (me.status !== 200 || changes.some(({ sent }) => /password/i.test(sent.path))) return this.newUser();
    const asset = await this.call('GET', `/assets/${this.secrets.asset}`, {});
    if (asset.status !== 200) await this.newAsset();
  }

  /** GET /healthz answers 200 {status: ok}. */
  async healthy(): Promise<boolean> {
    const response = await this.call('GET', '/healthz', {});
    return response.status === 200 && JSON.parse(response.text).status === 'ok';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sending

const REQUEST_TIMEOUT_MS = 20_000;

function bodyBytes(world: World, body: FuzzBody): Buffer {
  const charset = body.charset ?? 'utf8';
  const chunks: Buffer[] = [];
  if (body.bom === 'utf8') chunks.push(Buffer.from([0xef, 0xbb, 0xbf]));
  if (body.bom === 'utf16le') chunks.push(Buffer.from([0xff, 0xfe]));
  if (body.bom === 'utf16be') chunks.push(Buffer.from([0xfe, 0xff]));
  for (const part of body.parts) {
    if (typeof part === 'string') chunks.push(Buffer.from(world.fill(part), charset));
    else if ('hex' in part) chunks.push(Buffer.from(part.hex, 'hex'));
    else chunks.push(Buffer.from(world.fill(part.repeat).repeat(part.times), charset));
  }
  const bytes = Buffer.concat(chunks);
  if (body.compress === 'gzip') return gzipSync(bytes);
  if (body.compress === 'deflate') return deflateSync(bytes);
  if (body.compress === 'br') return brotliCompressSync(bytes);
  return bytes;
}

/** Sends one request as raw as Node allows (no URL normalisation, bytes as given) and reads the whole answer. */
export async function send(
  world: World,
  request: FuzzRequest,
): Promise<{ sent: SentRequest; response: FuzzResponse }> {
  const body = request.body ? bodyBytes(world, request.body) : Buffer.alloc(0);
  const digest = createHash('sha256').update(body).digest('base64');
  const headers: [string, string][] = request.headers.map(([name, value]) => [
    name,
    world.fill(value).replace('{digest}', digest),
  ]);
  if (!headers.some(([name]) => name.toLowerCase() === 'host'))
    headers.unshift(['Host', new URL(world.url).host]);
  if (request.body) {
    headers.push(
      request.body.chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(body.length)],
    );
  } else if (!['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'].includes(request.method)) {
    // Node would send an empty chunked body; a client without a body says Content-Length: 0.
    headers.push(['Content-Length', '0']);
  }
  const path = onTheWire(world.fill(request.path));
  // Signed last, over the headers as they will be sent.
  const signature = headers.findIndex(([, value]) => value === '{signature}');
  if (signature >= 0)
    headers[signature] = [headers[signature]![0], world.signature(request.method, path, headers)];
  const sent: SentRequest = { method: request.method, path, headers, body };
  world.sent++;
  const { hostname, port } = new URL(world.url);
  const response = await new Promise<FuzzResponse>((resolve) => {
    const req = httpRequest({
      hostname,
      port,
      method: sent.method,
      path: sent.path,
      headers: headers.flat(),
      agent: false,
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
    );
    req.on('error', (error) => resolve({ status: 0, headers: {}, text: `request failed: ${error.message}` }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) =>
        resolve({ status: 0, headers: {}, text: `response failed: ${error.message}` }),
      );
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
        res.socket?.destroy();
      });
    });
    if (request.body?.chunked) {
      // Two chunks when there is something to split, so the framing is really exercised.
      const half = Math.floor(body.length / 2);
      if (half > 0) req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else {
      req.end(body.length > 0 ? body : undefined);
    }
  });
  return { sent, response };
}

// ---------------------------------------------------------------------------------------------------------------
// The oracle

/** Anything that would betray the implementation: stack frames, file paths, exception names (as conventions.test.ts). */
export const INTERNALS =
  /\bat \S+ \(|\.ts:\d+|\.js:\d+|\/work\/|node_modules|\b(Type|Reference|Syntax|Range|Sqlite)Error\b|\bstack\b/g;
/** Messages of the runtime, the JSON parser, the database and the network that should never reach a client. */
export const INTERNAL_MESSAGES =
  /Cannot read propert|is not a function|is not defined|is not iterable|Unexpected token|Unexpected end of JSON|in JSON at position|Maximum call stack|SQLITE_|ENOENT|ECONNREFUSED|EADDRINUSE|\[object Object\]|internal_error/g;

/** A readable, bounded rendering of a request as sent, for failure messages. */
export function describe(sent: SentRequest): string {
  const preview = sent.body.length > 600 ? sent.body.subarray(0, 600) : sent.body;
  const printable = /^[\t\n\r\x20-\x7e]*$/.test(preview.toString('latin1'));
  return JSON.stringify(
    {
      method: sent.method,
      path: sent.path.length > 600 ? `${sent.path.slice(0, 600)}… (${sent.path.length} chars)` : sent.path,
      headers: sent.headers.map(([n, v]) => [
        n,
        v.length > 300 ? `${v.slice(0, 300)}… (${v.length} chars)` : v,
      ]),
      bodyBytes: sent.body.length,
      body: printable ? preview.toString('latin1') : `hex:${preview.toString('hex')}`,
    },
    null,
    2,
  );
}

/** Everything the request itself carried, decoded several ways: what the server may legitimately echo. */
function requestMaterial(sent: SentRequest): string {
  const safeDecode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const path = sent.path;
  return [
    path,
    safeDecode(path),
    safeDecode(path.replace(/\+/g, ' ')),
    path.toLowerCase(),
    ...sent.headers.map(([, v]) => v),
    sent.body.toString('utf8'),
    sent.body.toString('latin1'),
    safeDecode(sent.body.toString('utf8').replace(/\+/g, ' ')),
  ].join('\n');
}

/** Matches of `pattern` in `text` that the request did not itself contain. */
function unechoed(pattern: RegExp, text: string, material: string): string[] {
  return [...text.matchAll(pattern)].map((m) => m[0]).filter((found) => !material.includes(found));
}

/** Why a response breaks the properties, or null: a 5xx (or no answer), internals in the body, a broken problem. */
export function verdict(sent: SentRequest, response: FuzzResponse): string | null {
  if (response.status === 0) return `no HTTP answer (${response.text})`;
  if (response.status >= 500) return `answered ${response.status}`;
  const material = requestMaterial(sent);
  const leaks = [
    ...unechoed(INTERNALS, response.text, material),
    ...unechoed(INTERNAL_MESSAGES, response.text, material),
  ];
  if (leaks.length > 0) return `the body betrays the implementation: ${JSON.stringify([...new Set(leaks)])}`;
  const type = String(response.headers['content-type'] ?? '');
  if (/^application\/problem\+json/.test(type) && sent.method !== 'HEAD') {
    let problem: Json;
    try {
      problem = JSON.parse(response.text);
    } catch {
      return 'a problem+json body that is not JSON';
    }
    if (problem?.status !== response.status || typeof problem?.code !== 'string')
      return `a problem whose status/code do not match the answer (${response.status})`;
  }
  return null;
}

/** Sends `request` and throws (with the request as sent and the answer) when the answer breaks the properties. */
export async function check(
  world: World,
  request: FuzzRequest,
  extra?: (response: FuzzResponse) => string | null,
): Promise<{ sent: SentRequest; response: FuzzResponse; failure: string | null }> {
  const { sent, response } = await send(world, request);
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const problem = verdict(sent, response) ?? extra?.(response) ?? null;
  if (!problem) return { sent, response, failure: null };
  const body = response.text.length > 1500 ? `${response.text.slice(0, 1500)}…` : response.text;
  const failure = `${problem}\n--- request as sent (${world.store}):\n${describe(sent)}\n--- answer ${response.status}:\n${body}`;
  return { sent, response, failure };
}

/**
 * Runs one property over `arbitrary` against `world`, prints how many cases ran, and checks the server still
 * answers GET /healthz afterwards (also every 50 cases, so a wedged server is caught near its cause).
 */
export async function fuzz<T extends FuzzRequest | readonly FuzzRequest[]>(
  title: string,
  world: World,
  arbitrary: fc.Arbitrary<T>,
  options: {
    /** A further property of each answer: why it is wrong, or null. */
    extra?: (response: FuzzResponse, request: FuzzRequest) => string | null;
    /** Send the requests of one case all at once instead of one after another. */
    concurrent?: boolean;
    runs?: number;
  } = {},
): Promise<number> {
  const { extra, concurrent = false, runs = RUNS } = options;
  let cases = 0;
  const started = Date.now();
  statuses.clear();
  const before = world.sent;
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        cases++;
        const requests = (Array.isArray(value) ? value : [value]) as readonly FuzzRequest[];
        const one = (request: FuzzRequest) => check(world, request, extra && ((r) => extra(r, request)));
        const results = [];
        if (concurrent) results.push(...(await Promise.all(requests.map(one))));
        else for (const request of requests) results.push(await one(request));
        // Keep the world usable (a session, its asset) before judging, so the next case starts sound.
        await world.repair(results);
        const failure = results.find((r) => r.failure !== null)?.failure;
        if (failure) throw new Error(failure);
        if (cases % 50 === 0 && !(await world.healthy()))
          throw new Error('GET /healthz no longer answers 200');
      }),
      {
        numRuns: runs,
        endOnFailure: process.env.FUZZ_SHRINK === '0',
        ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      },
    );
  } finally {
    console.log(
      `      fuzz [${world.store}] ${title}: ${cases} cases, ${world.sent - before} requests, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    console.log(`        statuses: ${histogram.join(' ')}`);
    tally.cases += cases;
    tally.requests += world.sent - before;
  }
  if (!(await world.healthy())) throw new Error(`GET /healthz no longer answers 200 after "${title}"`);
  return cases;
}

/** Statuses answered during the current property, printed with its count. */
const statuses = new Map<number, number>();

/** Totals over the whole run, printed by each file's `after`. */
export const tally = { cases: 0, requests: 0 };

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: strings

/** Characters Node lets through in a header value: tab, printable ASCII and U+0080–U+00FF (sent as raw bytes). */
const HEADER_CHARS = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
);
export const headerValue = (maxLength = 80): fc.Arbitrary<string> =>
  fc.array(HEADER_CHARS, { maxLength }).map((codes) => String.fromCharCode(...codes));

/** Node refuses request targets with characters outside U+0021–U+00FF: percent-encode those, keep the rest raw. */
export const onTheWire = (text: string): string =>
  text.replace(/[^\u0021-\u00ff]/gu, (c) =>
    // A lone surrogate cannot be encoded as UTF-8: send the bytes of one (invalid UTF-8) instead.
    /^[\ud800-\udfff]$/.test(c) ? '%ED%A0%80' : encodeURIComponent(c),
  );

/** Any text at all: unicode, controls, lone surrogates, huge code points. */
const anyText = (maxLength = 40) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({
      unit: fc.constantFrom('\u0000', '\u202e', '\ufeff', '\ud800', '\udfff', '\u2028', 'ß', 'İ', '\u0130'),
      maxLength,
    }),
  );

const TRICKY_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F',
  '%2F',
  '%2f..%2f..%2fetc%2fpasswd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows',
  '%00',
  'alice%00',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%C0%AE%C0%AE',
  '%FF%FE',
  '%ED%A0%80',
  '%EF%BB%BFalice',
  '%F4%90%80%80',
  '%252F',
  '%u0041',
  '~',
  ';',
  ';jsessionid=1',
  'a;b=c',
  '@',
  ':',
  '*',
  '$',
  '%20',
  '+',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '-0',
  '0',
  '00',
  '1e309',
  '0x10',
  '9007199254740993',
  '99999999999999999999999999999999',
  '18446744073709551616',
  'new',
  'edit',
  'inbox',
  'ALICE',
  'Alice',
  'alice.',
  'alice/',
  '%61lice',
  'AL%49CE',
  'static',
  'favicon.ico',
  'style.css',
  '.well-known',
  '%2Fstatic%2Fstyle.css',
  '\u00ff\u00fe',
  '\u00c3\u00a9',
  '\u00e9',
  '\u00c0\u00af',
];

/** A fuzzed path segment: tricky constants, percent-encoded unicode, raw invalid UTF-8 bytes, very long. */
export const fuzzSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TRICKY_SEGMENTS) },
  { weight: 3, arbitrary: anyText().map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\ufffd'))) },
  { weight: 2, arbitrary: anyText().map(onTheWire) },
  // Raw bytes U+0080–U+00FF go over the wire as single bytes (invalid UTF-8 in the request line); Node's own
  // parser answers 400 to those before the app sees them, so the percent-encoded forms below are what reach it.
  {
    weight: 2,
    arbitrary: fc
      .array(fc.integer({ min: 0x21, max: 0xff }), { maxLength: 20 })
      .map((c) => String.fromCharCode(...c).replace(/[/?#]/g, '_')),
  },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 16 })
      .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
  },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 6000 }).map((n) => `{*${n}:a}`) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 1000 }).map((n) => `{*${n}:%E2%82%AC}`) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{0,40}$/) },
);

/** Valid values for each path parameter, by name. */
const VALID_PARAMS: Record<string, readonly string[]> = {
  username: ['{user}', 'alice', 'ALICE', 'Alice', 'nobody_here', '{user}'],
  name: ['{asset}', '{asset}', 'new', 'no-such-asset', 'a.b-c_d'],
  jti: ['{jti}', '{jti}', '00000000-0000-0000-0000-000000000000'],
  idx: ['0', '1', '2', '3', '1000000', '01'],
};

/** A value for `{param}`: mostly valid (a registered user, an existing asset, the session's jti), else fuzzed. */
export const paramValue = (name: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(VALID_PARAMS[name] ?? ['x'])) },
    { weight: 2, arbitrary: fuzzSegment },
  );

/** Fills a route template's `{params}` (and sometimes appends junk segments or a trailing slash). */
export function pathFor(
  template: string,
  segment: (name: string) => fc.Arbitrary<string> = paramValue,
  { suffixes = true } = {},
): fc.Arbitrary<string> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc
    .record({
      values: fc.tuple(...names.map((n) => segment(n))),
      suffix: !suffixes
        ? fc.constant('')
        : fc.oneof(
            { weight: 8, arbitrary: fc.constant('') },
            {
              weight: 1,
              arbitrary: fc.constantFrom(
                '/',
                '//',
                '/.',
                '/..',
                '/%2e%2e',
                '.json',
                '%00',
                '/x',
                '?',
                '#frag',
              ),
            },
            { weight: 1, arbitrary: fuzzSegment.map((s) => `/${s}`) },
          ),
      caseFold: fc.oneof(
        { weight: 9, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    })
    .map(({ values, suffix, caseFold }) => {
      let i = 0;
      const path = template.replace(/\{(\w+)\}/g, () => values[i++]!);
      // The router is case-insensitive; placeholders must stay intact.
      const folded = caseFold ? path.replace(/\/[a-z.-]+/g, (s) => s.toUpperCase()) : path;
      return folded + suffix;
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: query strings

const QUERY_KEYS = [
  'limit',
  'before',
  'after',
  'owner',
  'q',
  'resource',
  'page',
  'next',
  'changed',
  'limit[]',
  'q[]',
  'owner[]',
  '__proto__',
  '__proto__[x]',
  'constructor[prototype][x]',
  'a[b][c]',
  '',
  'token',
];
const QUERY_VALUES = [
  '',
  '0',
  '1',
  '20',
  '100',
  '101',
  '-1',
  '1.5',
  '1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '99999999999999999999999',
  '0x10',
  ' 5',
  'true',
  'abc',
  '{user}',
  'ALICE',
  'acct:{user}@l2.test',
  'acct:alice@l2.test',
  'acct:ALICE@L2.TEST',
  'acct:@l2.test',
  'acct:{user}@other.example',
  'acct:l2.test@l2.test',
  'acct:__proto__@l2.test',
  'acct:constructor@l2.test',
  'acct:alice@l2.test@l2.test',
  'acct:%zz@l2.test',
  'http://l2.test/users/__proto__',
  'http://l2.test/users/%zz',
  'http://l2.test/users/%E0%A4%A',
  'http://l2.test/users/alice/outbox',
  'http://l2.test:99999/users/alice',
  'http://[::1',
  'http://l2.test/users/{user}',
  'http://l2.test/actor',
  'https://l2.test/users/alice',
  'mailto:alice@l2.test',
  'javascript:alert(1)',
  '//evil.example',
  '/\t/evil.example',
  '/%2F%2Fevil.example',
  '%00',
  '%zz',
  '%C0%AF',
  '%FF',
  'MA',
  'eyJpZHgiOjF9',
  '{token}',
];

const queryValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...QUERY_VALUES) },
  { weight: 2, arbitrary: anyText().map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))) },
  { weight: 1, arbitrary: fuzzSegment },
  { weight: 1, arbitrary: fc.integer({ min: 500, max: 5000 }).map((n) => `{*${n}:q}`) },
);

/** A query string (with its `?`), often empty. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 5,
    arbitrary: fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fuzzSegment), queryValue), {
        minLength: 1,
        maxLength: 5,
      })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?',
      '??',
      '?&&',
      '?=',
      '?a',
      '?limit',
      '?limit=1&limit=2',
      '?page=true&before=1&after=1',
    ),
  },
  { weight: 1, arbitrary: anyText(60).map((s) => `?${onTheWire(s).replace(/#/g, '%23')}`) },
);

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: headers

export const ACCEPTS = [
  'application/json',
  'text/html',
  'application/activity+json',
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  '*/*',
  'image/png',
  'application/problem+json',
  'text/*',
  'application/*',
  'text/html;q=0.5, application/json;q=0.9',
  'text/html;q=1.1, application/json;q=-1',
  'text/html;q=abc',
  '*/*;q=NaN',
  'application/json;q=0',
  ';;;',
  ',',
  '/',
  'text/',
  '*',
  'application/json;{*200:q=1;}',
  '{*300:type/sub;q=0.5,}*/*',
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-16',
  'application/json; charset=latin1',
  'application/json; charset=garbage',
  'application/json; charset=',
  'application/json;;;',
  'APPLICATION/JSON',
  'application/json, text/html',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/activity+json',
  'application/activity+json; charset=utf-8',
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  'application/ld+json; profile=',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'text/html',
  'application/xml',
  'multipart/form-data; boundary=XyZ',
  'multipart/form-data',
  'application/octet-stream',
  'json',
  '',
  ';',
  '/',
  '*/*',
];

const CONTENT_ENCODINGS = [
  'gzip',
  'deflate',
  'br',
  'identity',
  'compress',
  'x-gzip',
  'gzip, gzip',
  'zstd',
  'garbage',
  '',
];

const now = Math.floor(Date.now() / 1000);
/** Well-formed and ill-formed JWTs: wrong key, alg none, expired, another issuer, junk claims. */
const FORGED_TOKENS = [
  forgeToken(validClaims(), { secret: 'not-the-secret' }),
  forgeToken(validClaims(), { header: { alg: 'none', typ: 'JWT' }, signature: '' }),
  forgeToken(validClaims({ exp: now - 10 })),
  forgeToken(validClaims({ iss: 'https://evil.example', l2_server: 'https://evil.example' })),
  forgeToken(validClaims({ username: '__proto__', sub: '__proto__' })),
  forgeToken(`{"sub":"alice","username":12,"jti":{"$gt":""},"iat":${now},"exp":1e309}`),
  forgeToken({ ...validClaims(), exp: '99999999999999999999' }),
  forgeToken([1, 2, 3]),
  forgeToken('not json'),
  forgeToken(validClaims(), { header: { alg: 'HS512', typ: 'JWT' }, hmac: 'sha512' }),
  forgeToken(validClaims(), { header: { alg: 'RS256', typ: 'JWT' } }),
  'a.b.c',
  'a.b',
  '...',
  '',
  'eyJ',
];

const AUTHORIZATIONS = [
  'Bearer {token}',
  'bearer {token}',
  'BEARER   {token}   ',
  'Bearer {token} extra',
  'Bearer {token}x',
  'Bearer',
  'Bearer ',
  'Basic YWxpY2U6Y29ycmVjdCBob3JzZSBiYXR0ZXJ5',
  'Digest username="alice"',
  'Token {token}',
  '{token}',
  ...FORGED_TOKENS.map((t) => `Bearer ${t}`),
];

const COOKIES = [
  'l2_token={token}',
  'l2_token={token}; l2_csrf={csrfSeed}',
  'l2_token="{token}"',
  'l2_token=%7Btoken%7D',
  'l2_token=',
  'l2_token=garbage',
  'l2_token=a; l2_token={token}',
  'l2_token={token}; l2_token=a',
  'l2_csrf=x',
  'l2_csrf=',
  '=;;=;',
  ';',
  'l2_token',
  '__proto__=1; constructor=2',
  'l2_token=\u00ff\u00fe',
  ...FORGED_TOKENS.map((t) => `l2_token=${t}`),
];

/** The credentials a request carries, as header pairs. */
export const credentials: fc.Arbitrary<readonly Pair[]> = pick<readonly Pair[]>(
  { weight: 3, arbitrary: fc.constant(none) },
  { weight: 3, arbitrary: fc.constant([pair('Authorization', 'Bearer {token}')]) },
  { weight: 2, arbitrary: fc.constant([pair('Cookie', 'l2_token={token}')]) },
  {
    weight: 2,
    arbitrary: fc.constant([
      pair('Cookie', 'l2_token={token}; l2_csrf={csrfSeed}'),
      pair('X-CSRF-Token', '{csrf}'),
    ]),
  },
  { weight: 1, arbitrary: fc.constant([pair('Cookie', 'l2_csrf={csrfSeed}')]) },
  { weight: 1, arbitrary: fc.constantFrom(...AUTHORIZATIONS).map((v) => [pair('Authorization', v)]) },
  { weight: 1, arbitrary: fc.constantFrom(...COOKIES).map((v) => [pair('Cookie', v)]) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...COOKIES), headerValue(60))
      .map(([c, t]) => [pair('Cookie', c), pair('X-CSRF-Token', t)]),
  },
);

/** Headers beyond credentials and content type: forwarding, negotiation, caching, very long and repeated values. */
const ODD_HEADER_NAMES = [
  'X-Forwarded-For',
  'X-Forwarded-Proto',
  'X-Forwarded-Host',
  'X-Real-IP',
  'Forwarded',
  'Origin',
  'Referer',
  'User-Agent',
  'Accept-Language',
  'Accept-Encoding',
  'Accept-Charset',
  'If-None-Match',
  'If-Modified-Since',
  'Range',
  'Cache-Control',
  'X-HTTP-Method-Override',
  'X-Requested-With',
  'Date',
  'Digest',
  'Signature',
  'Signature-Input',
  'Content-Digest',
  'Content-Language',
  'Content-Type',
  'Content-Encoding',
  'Accept',
  'Authorization',
  'Cookie',
  'X-CSRF-Token',
  'Host',
  'TE',
  'Via',
  'X-Long',
  '__proto__',
  'constructor',
];
const ODD_HEADER_VALUES = [
  '1.2.3.4',
  '1.2.3.4, 5.6.7.8',
  '::1',
  '[::1]:80',
  '::ffff:10.0.0.1',
  'unknown',
  'for=1.2.3.4;proto=https',
  'https',
  'evil.example',
  'l2.test',
  'null',
  '*',
  'bytes=0-10',
  'bytes=-1',
  'W/"x"',
  '"*"',
  'gzip',
  'Thu, 01 Jan 1970 00:00:00 GMT',
  '{date}',
  'PATCH',
  'DELETE',
  'en;q=abc',
  'trailers',
  '',
  ' ',
];

/** One odd header pair. */
export const oddHeader: fc.Arbitrary<Pair> = fc.tuple(
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...ODD_HEADER_NAMES) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,30}$/) },
  ),
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        ...ODD_HEADER_VALUES,
        ...ACCEPTS,
        ...CONTENT_TYPES,
        ...AUTHORIZATIONS,
        ...COOKIES,
      ),
    },
    { weight: 3, arbitrary: headerValue() },
    // Very long, but within Node's 16 KiB header limit in total.
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => `{*${n}:v}`) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 1500 }).map((n) => `{*${n}:a, }`) },
  ),
);

/** Accept: mostly the usual types, sometimes junk, sometimes missing. */
export const acceptHeader: fc.Arbitrary<readonly Pair[]> = pick<readonly Pair[]>(
  { weight: 1, arbitrary: fc.constant(none) },
  { weight: 4, arbitrary: fc.constantFrom(...ACCEPTS).map((a) => [pair('Accept', a)]) },
  { weight: 1, arbitrary: headerValue(40).map((a) => [pair('Accept', a)]) },
);

export const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'M-SEARCH',
  'FOO',
];

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: bodies

/** A JSON value as text: adversarial numbers, strings, __proto__ keys, deep nesting and 10,000-element arrays. */
const HUGE_NUMBERS = [
  '1e309',
  '-1e309',
  '1e-400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-0',
  '0.1e1',
  '1E+2',
  '0e0',
];

const jsonString = fc.oneof(
  { weight: 3, arbitrary: anyText(30) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '{user}',
      '{password}',
      '{token}',
      '{jti}',
      '{asset}',
      '{csrf}',
      'alice',
      'ALICE',
      'correct horse battery',
      'https://l1.example',
      'http://127.0.0.1:1',
      'https://user:pw@l1.example/x?y#z',
      'ftp://l1.example',
      'javascript:alert(1)',
      CONTENT_HASH,
      'sha256:' + 'F'.repeat(64),
      'image/png',
      'text/html; charset=utf-8',
      'PATCH',
      'DELETE',
      '__proto__',
      '',
      '\u0000',
      'a\u0000b',
      '<script>alert(1)</script>',
      '{{ 7*7 }}',
      '${7*7}',
      "' OR 1=1 --",
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 5100 }).map((n) => `{*${n}:x}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 80 }).map((n) => `{*${n}:\ud83d\ude00}`) },
);

const jsonScalar: fc.Arbitrary<string> = fc.oneof(
  jsonString.map((s) => JSON.stringify(s)),
  fc.constantFrom('null', 'true', 'false', '0', '-1', '1.5', ...HUGE_NUMBERS),
  fc.double().map((d) => (Number.isFinite(d) ? JSON.stringify(d) : '1e999')),
  fc.bigInt().map(String),
);

const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '_method',
  '_csrf',
  'toString',
  '',
  'a',
  'type',
  'actor',
  'name',
  'tags',
  'valueOf',
  'hasOwnProperty',
];

/** A (small, possibly nested) JSON value as text. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: jsonScalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), anyText(8)), tie('value')), { maxLength: 4 })
        .map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    },
  ),
})).value;

/** Values a field of that name takes when the request is meant to succeed (or to fail only on its merits). */
const VALID_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  username: pick<string>(
    { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9_]{3,16}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{user}',
        'alice',
        'ALICE',
        'Alice_1',
        '__proto__',
        'constructor',
        'tostring',
        'hasownproperty',
      ),
    },
  ),
  password: pick<string>(
    { weight: 2, arbitrary: fc.constantFrom('{password}', 'correct horse battery') },
    { weight: 1, arbitrary: fc.string({ minLength: 8, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 8, maxLength: 80 }) },
  ),
  token: fc.constantFrom('{token}', '{token}', ...FORGED_TOKENS),
  l1_server: fc.constantFrom(
    'https://l1.example',
    'https://L1.Example:443/',
    'http://127.0.0.1:1',
    'http://[::1]:1',
    'https://l1.example/sub/path',
    'https://xn--bcher-kva.example',
    null,
  ),
  everywhere: fc.boolean(),
  current_password: fc.constantFrom('{password}', '{password}', 'wrong password'),
  new_password: pick<string>(
    { weight: 1, arbitrary: fc.constant('correct horse battery') },
    { weight: 1, arbitrary: fc.string({ minLength: 8, maxLength: 40 }) },
  ),
  name: pick<string>(
    { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,30}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{asset}',
        'new',
        'a',
        `a${'b'.repeat(127)}`,
        'constructor',
        'toString',
        'valueOf',
        'hasOwnProperty',
        'x.json',
        'a..b',
      ),
    },
  ),
  content_hash: pick<string>(
    { weight: 1, arbitrary: fc.constant(CONTENT_HASH) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `sha256:${h}`) },
  ),
  media_type: fc.constantFrom(
    'image/png',
    'text/plain',
    'application/vnd.foo+json',
    'model/gltf-binary',
    'a/b',
  ),
  url: pick<string | null>(
    { weight: 2, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(null, 'http://127.0.0.1:1/x', 'https://[::1]/x', 'https://example.com/%zz'),
    },
  ),
  description: pick<string>(
    { weight: 3, arbitrary: anyText(200) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '{*5000:é}', '{*5001:a}', '{*2500:\ud83d\ude00}', 'a\tb\r\nc\u0000d'),
    },
  ),
  tags: fc.array(
    pick<string>(
      { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,12}$/) },
      { weight: 1, arbitrary: anyText(12) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('#tag', 'a,b', ' ', '', '{*50:t}', '{*51:t}', 'ünïcødé', '__proto__'),
      },
    ),
    { maxLength: 21 },
  ),
  _method: fc.constantFrom('PATCH', 'DELETE'),
  next: pick<string>(
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '/',
        '/account',
        '/assets/{asset}',
        '//evil.example',
        '/\t/evil.example',
        '/\\evil.example',
        'https://evil.example',
        '/%2F%2Fevil.example',
        '/.//evil.example',
        '/a?b=c#d',
        '/\u00e9\u0000\r\nSet-Cookie: x=1',
        'javascript:alert(1)',
      ),
    },
    { weight: 1, arbitrary: anyText(60).map((t) => `/${t}`) },
  ),
  _csrf: fc.constantFrom('{csrf}', '{csrfOut}'),
  type: fc.constantFrom('Follow', 'Undo', 'Delete', 'Create'),
  actor: fc.constantFrom('{peer}', 'http://l2.test/users/{user}', 'https://remote.example/users/bob'),
};

/** A field's value as a form sends it: text, a list comma-separated. */
const formText = (value: unknown): string =>
  Array.isArray(value) ? value.join(',') : value === null || value === undefined ? '' : String(value);

/** A value for a field: mostly one meant to be valid, else well-typed and plausible, sometimes anything. */
function fieldValue(name: string, type: string): fc.Arbitrary<readonly Part[]> {
  const plausible =
    type === 'boolean'
      ? fc.constantFrom('true', 'false', '"true"', '1', 'null')
      : type === 'array'
        ? fc.oneof(
            fc.array(jsonString, { maxLength: 25 }).map((xs) => JSON.stringify(xs)),
            fc.constantFrom('[]', '[null]', '[1,2]', '[[]]', '["a,b"]', '["#tag"]', '[" "]'),
          )
        : jsonString.map((s) => JSON.stringify(s));
  const valid = VALID_VALUES[name];
  return fc.oneof(
    { weight: valid ? 6 : 0, arbitrary: (valid ?? fc.constant(null)).map((v) => [JSON.stringify(v)]) },
    { weight: 3, arbitrary: plausible.map((s) => [s]) },
    { weight: 2, arbitrary: jsonText.map((s) => [s]) },
    // 10,000-element arrays.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('"x",', '0,', 'null,', '[],', '{},', '1e309,')
        .map((unit) => ['[', { repeat: unit, times: 9999 }, unit.slice(0, -1), ']']),
    },
    // Invalid UTF-8 inside a string.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('ff', 'c0af', 'ed a0 80'.replace(/ /g, ''), 'f4908080', 'c3', 'e282')
        .map((hex) => ['"a', { hex }, 'b"']),
    },
  );
}

/** Every field of `fields`, each with a value meant to be valid: the request succeeds or fails on its merits. */
export function wellFormedBody(fields: Readonly<Record<string, string>>): fc.Arbitrary<readonly Part[]> {
  const names = Object.keys(fields);
  return fc
    .tuple(...names.map((n) => (VALID_VALUES[n] ?? jsonString).map((v) => JSON.stringify(v))))
    .map((values) => [`{${values.map((v, i) => `${JSON.stringify(names[i])}:${v}`).join(',')}}`]);
}

/** An object body shaped like `fields`: well-formed, or with fuzzed values and missing, extra or repeated keys. */
export function schemaBody(fields: Readonly<Record<string, string>>): fc.Arbitrary<readonly Part[]> {
  const names = Object.keys(fields);
  const entriesOf = (values: readonly (readonly Part[])[], present: readonly string[]): Part[][] =>
    present.map((name) => [JSON.stringify(name), ':', ...values[names.indexOf(name)]!]);
  const object = (entries: Part[][]): Part[] => {
    const parts: Part[] = ['{'];
    entries.forEach((entry, i) => parts.push(...(i > 0 ? [','] : []), ...entry));
    parts.push('}');
    return parts;
  };
  const mixed = fc
    .record({
      present: pick<string[]>(
        { weight: 3, arbitrary: fc.constant(names) },
        { weight: 2, arbitrary: fc.subarray(names) },
      ),
      values: fc.tuple(...names.map((n) => fieldValue(n, fields[n]!))),
      extra: pick<[string, string][]>(
        { weight: 2, arbitrary: fc.constant([]) },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), anyText(8)), jsonText), {
            maxLength: 3,
          }),
        },
      ),
      duplicate: fc.oneof(
        { weight: 5, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    })
    .map(({ present, values, extra, duplicate }) => {
      const entries = entriesOf(values, present);
      for (const [k, v] of extra) entries.push([JSON.stringify(k), ':', v]);
      if (duplicate && entries[0]) entries.push(entries[0]);
      return object(entries);
    });
  return pick<readonly Part[]>(
    { weight: 1, arbitrary: wellFormedBody(fields) },
    { weight: 2, arbitrary: mixed },
  );
}

/** A form body shaped like `fields` (valid values mostly), with encoding errors, repeated and bracket keys. */
export function formBody(fields: Readonly<Record<string, string>>): fc.Arbitrary<readonly Part[]> {
  const names = Object.keys(fields);
  const junkNames = [...names, '_csrf', '_method', '__proto__', 'a[b]', 'tags[]', 'next'];
  const junkValue = fc.oneof(
    { weight: 3, arbitrary: jsonString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '{csrf}',
        '{user}',
        '{password}',
        'PATCH',
        'DELETE',
        '%zz',
        '%',
        '%C0%AF',
        '%FF',
        '+',
        '&',
        '=',
        '%00',
        'a%2Cb%2Cc',
        '//evil.example',
      ),
    },
    { weight: 1, arbitrary: fuzzSegment },
  );
  const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  return fc
    .record({
      present: pick<string[]>(
        { weight: 3, arbitrary: fc.constant(names) },
        { weight: 1, arbitrary: fc.subarray(names) },
      ),
      values: fc.tuple(...names.map((n) => VALID_VALUES[n] ?? jsonString)),
      csrf: fc.constantFrom('_csrf={csrf}', '_csrf={csrfOut}', ''),
      junk: pick<[string, string][]>(
        { weight: 1, arbitrary: fc.constant([]) },
        {
          weight: 1,
          arbitrary: fc.array(
            fc.tuple(
              fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom(...junkNames) },
                { weight: 1, arbitrary: fuzzSegment },
              ),
              junkValue,
            ),
            { maxLength: 6 },
          ),
        },
      ),
    })
    .map(({ present, values, csrf, junk }) => {
      const pairs = present.map((name) => `${name}=${encode(formText(values[names.indexOf(name)]))}`);
      if (csrf) pairs.push(csrf);
      pairs.push(...junk.map(([k, v]) => `${k}=${v}`));
      return [pairs.join('&')];
    });
}

/** Bodies that are not what any route expects: bad JSON, deep nesting, huge numbers, raw bytes, multipart, … */
export const adversarialBody: fc.Arbitrary<readonly Part[]> = pick<readonly Part[]>(
  { weight: 3, arbitrary: jsonText.map((s) => [s]) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        '',
        ' ',
        'null',
        '[]',
        '{}',
        '"a"',
        '0',
        '{',
        '}',
        '{"a":',
        '{"a":1}}',
        '{a:1}',
        "{'a':1}",
        '{"a":1,}',
        '[1,]',
        'NaN',
        'undefined',
        '{"__proto__":{"admin":true,"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '{"__proto__":null}',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
        '{"a":"\\x41"}',
        '\u0000',
        '{"username":"alice","username":"bob"}',
        HUGE_NUMBERS.map((n) => `{"n":${n}}`).join(''),
        '{"n":{*5000:9}}',
        '{"n":0.{*5000:0}1}',
        '{"n":1e{*400:9}}',
        '--XyZ\r\nContent-Disposition: form-data; name="username"\r\n\r\nalice\r\n--XyZ--\r\n',
        '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
        'username=alice&password=x',
      )
      .map((s) => [s]),
  },
  // Deep nesting (arrays and objects), balanced and not.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 100, max: 30000 }), fc.constantFrom('[', '{"a":'), fc.boolean())
      .map(([depth, open, balanced]) => [
        { repeat: open, times: depth },
        '1',
        ...(balanced ? [{ repeat: open === '[' ? ']' : '}', times: depth }] : []),
      ]),
  },
  // 10,000-element arrays and wide objects.
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('0,', '"x",', '{},', '[],', 'null,')
      .map((u) => ['[', { repeat: u, times: 9999 }, u.slice(0, -1), ']']),
  },
  { weight: 1, arbitrary: fc.constant(['{', { repeat: '"__proto__":{},', times: 3000 }, '"a":1}']) },
  // Raw bytes: invalid UTF-8, NULs, anything.
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => [{ hex: Buffer.from(b).toString('hex') }]),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('ff', 'fffe', 'c0af', 'eda080', 'f4908080', 'c3', '00')
      .map((hex) => ['{"username":"', { hex }, '","password":"', { hex }, '"}']),
  },
  // Sizes around the 64 KiB and 256 KiB limits.
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(65_536 - 12, 65_537 - 12, 70_000, 262_144 - 12, 262_145 - 12, 400_000)
      .map((n) => ['{"token":"', { repeat: 't', times: n }, '"}']),
  },
);

/** `value` now and then, else undefined (dropped from the record). */
const rarely = <T>(value: fc.Arbitrary<T>, weight = 1, outOf = 6): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: outOf - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary: value });

const bodyShape = (parts: readonly Part[]): fc.Arbitrary<FuzzBody> =>
  fc
    .record({
      charset: rarely(fc.constantFrom('utf16le' as const, 'latin1' as const)),
      bom: rarely(fc.constantFrom('utf8' as const, 'utf16le' as const, 'utf16be' as const)),
      compress: rarely(fc.constantFrom('gzip' as const, 'deflate' as const, 'br' as const)),
      chunked: rarely(fc.constant(true)),
    })
    .map((shape) => {
      const body: { -readonly [K in keyof FuzzBody]: FuzzBody[K] } = { parts };
      for (const [key, value] of Object.entries(shape))
        if (value !== undefined) Object.assign(body, { [key]: value });
      return body;
    });

/** A body (bytes, charset, BOM, compression, framing) and the headers that describe it (or misdescribe it). */
export function bodyWithHeaders(
  route: Pick<RouteSpec, 'fields' | 'kind'>,
  options: {
    /** The content (by default: shaped like the route's body, a form, or adversarial). */
    parts?: fc.Arbitrary<readonly Part[]>;
    /** The content type `parts` are in (by default JSON, ActivityStreams JSON for an inbox). */
    type?: string;
    /** How many in ten bodies go as a client would send them (their own type, plain UTF-8): past the parser. */
    cleanInTen?: number;
  } = {},
): fc.Arbitrary<{ body: FuzzBody; headers: Pair[] }> {
  const { parts, cleanInTen = 5 } = options;
  const json = route.kind === 'inbox' ? 'application/activity+json' : 'application/json';
  const form = 'application/x-www-form-urlencoded';
  const natural = route.kind === 'page' ? form : json;
  const content = parts
    ? parts.map((p) => ({ parts: p, natural: options.type ?? json }))
    : pick<{ parts: readonly Part[]; natural: string }>(
        { weight: 3, arbitrary: schemaBody(route.fields).map((p) => ({ parts: p, natural: json })) },
        { weight: 2, arbitrary: formBody(route.fields).map((p) => ({ parts: p, natural: form })) },
        { weight: 3, arbitrary: adversarialBody.map((p) => ({ parts: p, natural })) },
      );
  return fc
    .record({
      content,
      clean: fc.integer({ min: 0, max: 9 }).map((n) => n < cleanInTen),
      type: pick<readonly string[] | null>(
        { weight: 5, arbitrary: fc.constant(null) },
        { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((t) => [t]) },
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: headerValue(40).map((t) => [t]) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...CONTENT_TYPES), fc.constantFrom(...CONTENT_TYPES))
            .map((t) => [...t]),
        },
      ),
      encoding: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...CONTENT_ENCODINGS) },
      ),
    })
    .chain(({ content, clean, type, encoding }) =>
      (clean ? fc.constant<FuzzBody>({ parts: content.parts }) : bodyShape(content.parts)).map((body) => {
        const types = clean ? [content.natural] : (type ?? [content.natural]);
        // A compressed body usually says so; sometimes it lies, and sometimes an uncompressed one claims gzip.
        const headers: Pair[] = types.map((t) => pair('Content-Type', t));
        const claimed = clean ? null : (encoding ?? body.compress ?? null);
        if (claimed !== null) headers.push(['Content-Encoding', claimed]);
        return { body, headers };
      }),
    );
}
