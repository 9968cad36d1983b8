/**
 * A stand-in L2 that follows API.md exactly where the kit touches it: `POST /auth/verify` (§1), the RFC 8414
 * metadata and JWKS (§2.1), `GET /oauth/authorize` + `POST /oauth/token` (§2.3, the user's consent given by the
 * test) and signed revocation notices (§2, §2.4). A real node:http server on 127.0.0.1; it counts every request and
 * can be told to fail the ways a real one can (503 with Retry-After, 500, no answer at all, malformed answers).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, errors as joseErrors, type CryptoKey } from 'jose';

export const BCL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A clock the test moves by hand; the kit and the stand-in both read it. */
export class TestClock {
  constructor(public ms = Math.floor(Date.now() / 1000) * 1000) {}
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export type VerifyMode = 'ok' | 'unavailable' | 'error500' | 'hang' | 'garbage' | 'html' | 'rate_limited';

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  username: string;
  expiresAt: number;
  used: boolean;
  issued?: string;
}

export interface NoticeOptions {
  /** Claims to set (a value of `undefined` removes the claim). */
  claims?: Record<string, unknown>;
  /** Header parameters to set. */
  header?: Record<string, unknown>;
  /** Sign with this key instead of the published one. */
  key?: CryptoKey;
  /** `alg: none`, no signature. */
  unsigned?: boolean;
}

export class StandInL2 {
  url = '';
  readonly counts = { verify: 0, metadata: 0, jwks: 0, authorize: 0, token: 0 };
  verifyMode: VerifyMode = 'ok';
  /** The `Retry-After` header of 503/429 answers. */
  retryAfter: string | undefined;
  /** Replaces fields of the metadata document. */
  metadataOverrides: Record<string, unknown> = {};
  /** Who is signed in at L2 when the browser reaches `/oauth/authorize`, and what they press. */
  signedInAs = 'alice';
  consent: 'allow' | 'deny' = 'allow';
  /** While set, verify answers wait for it (to hold a verification in flight). */
  verifyGate: Promise<void> | undefined;
  /** Verdicts decided and held by the gate. */
  heldAnswers = 0;
  /** Every verify request body, in order. */
  readonly verifyBodies: unknown[] = [];
  readonly tokenRequests: URLSearchParams[] = [];

  readonly #now: () => number;
  readonly #secret = randomBytes(32);
  readonly #revoked = new Set<string>();
  readonly #codes = new Map<string, Code>();
  #server: Server | undefined;
  noticeKey!: CryptoKey;
  noticeKid = 'notice-2026';
  #jwks: Record<string, unknown>[] = [];

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    this.noticeKey = privateKey;
    this.#jwks = [{ ...(await exportJWK(publicKey)), kid: this.noticeKid, use: 'sig', alg: 'ES256' }];
    this.#server = createServer((req, res) => {
      this.#route(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A token as L2 issues them (HS256, API.md §1 claims); `l1` makes it a scoped token. */
  async issue(
    username: string,
    options: { l1?: string; lifetimeSeconds?: number; sid?: string } = {},
  ): Promise<string> {
    const iat = Math.floor(this.#now() / 1000);
    const claims: Record<string, unknown> = { username, l2_server: this.url };
    if (options.l1) {
      claims.l1_server = options.l1;
      claims.sid = options.sid ?? randomUUID();
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(username)
      .setIssuer(this.url)
      .setIssuedAt(iat)
      .setExpirationTime(iat + (options.lifetimeSeconds ?? 30 * 24 * 3600))
      .setJti(randomUUID())
      .sign(this.#secret);
  }

  /** Records the token as revoked (as logout does); verify answers `token_revoked` from now on. */
  revoke(token: string): void {
    this.#revoked.add(sha256(token));
  }

  /** A logout token for a revoked token (API.md §2.4), or a forged one with `options`. */
  async logoutToken(token: string, options: NoticeOptions = {}): Promise<string> {
    const claims = decode(token);
    const iat = Math.floor(this.#now() / 1000);
    const payload: Record<string, unknown> = {
      iss: this.url,
      aud: claims.l1_server,
      iat,
      exp: iat + 120,
      // As L2 names a notice: by the revoked token's hash, the same on every attempt.
      jti: sha256(token),
      sub: claims.sub,
      sid: claims.sid,
      events: { [BCL_EVENT]: {} },
      token_hash: sha256(token),
      expires_at: claims.exp, // a NumericDate, like every JWT time claim
    };
    for (const [name, value] of Object.entries(options.claims ?? {})) {
      if (value === undefined) delete payload[name];
      else payload[name] = value;
    }
    const header: Record<string, unknown> = { alg: 'ES256', kid: this.noticeKid, typ: 'logout+jwt' };
    for (const [name, value] of Object.entries(options.header ?? {})) {
      if (value === undefined) delete header[name];
      else header[name] = value;
    }
    if (options.unsigned) return `${b64({ ...header, alg: 'none' })}.${b64(payload)}.`;
    return new SignJWT(payload)
      .setProtectedHeader(header as { alg: string })
      .sign(options.key ?? this.noticeKey);
  }

  /** The notice body L2 posts for a revoked scoped token (the legacy fields plus `logout_token`). */
  async notice(token: string, options: NoticeOptions & { withoutLogoutToken?: boolean } = {}) {
    const claims = decode(token);
    const body: Record<string, unknown> = {
      token_hash: sha256(token),
      username: claims.sub,
      l2_server: this.url,
      expires_at: new Date((claims.exp as number) * 1000).toISOString(),
    };
    if (!options.withoutLogoutToken) body.logout_token = await this.logoutToken(token, options);
    return body;
  }

  /** Posts a notice to `<l1_server>/auth/revoke` as L2's delivery does; resolves to the L1's answer. */
  async deliver(l1: string, body: unknown): Promise<{ status: number; body: string; headers: Headers }> {
    const response = await fetch(`${l1}/auth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
    });
    return { status: response.status, body: await response.text(), headers: response.headers };
  }

  /** Starts signing notices with a new key, published beside the old one only when `publish` is set (a rotation). */
  async rotateNoticeKey(publish: boolean): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    this.noticeKey = privateKey;
    this.noticeKid = `notice-${randomUUID()}`;
    const jwk = { ...(await exportJWK(publicKey)), kid: this.noticeKid, use: 'sig', alg: 'ES256' };
    this.#jwks = publish ? [jwk, ...this.#jwks] : this.#jwks;
  }

  /** Revokes a scoped token and delivers its signed notice to its L1 server, as logout does (§2). */
  async revokeAndNotify(token: string): Promise<{ status: number; body: string; headers: Headers }> {
    this.revoke(token);
    return this.deliver(decode(token).l1_server as string, await this.notice(token));
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /.well-known/oauth-authorization-server') {
      this.counts.metadata++;
      return json(res, 200, {
        issuer: this.url,
        authorization_endpoint: `${this.url}/oauth/authorize`,
        token_endpoint: `${this.url}/oauth/token`,
        introspection_endpoint: `${this.url}/oauth/introspect`,
        jwks_uri: `${this.url}/.well-known/jwks.json`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        introspection_endpoint_auth_methods_supported: ['none'],
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
        ...this.metadataOverrides,
      });
    }
    if (route === 'GET /.well-known/jwks.json') {
      this.counts.jwks++;
      return json(res, 200, { keys: this.#jwks });
    }
    if (route === 'POST /auth/verify') return this.#verify(req, res);
    if (route === 'GET /oauth/authorize') return this.#authorize(url, res);
    if (route === 'POST /oauth/token') return this.#token(req, res);
    return problem(res, 404, 'not_found');
  }

  async #verify(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counts.verify++;
    const raw = await body(req);
    const gate = this.verifyGate;
    if (gate) {
      // Decide now, answer when the gate opens: a verification held in flight.
      const held = { statusCode: 0, headers: {} as Record<string, unknown>, text: '' };
      const recorder = {
        writeHead: (status: number, headers: Record<string, unknown>) => {
          Object.assign(held, { statusCode: status, headers });
          return recorder;
        },
        end: (text: string) => void (held.text = text),
      };
      await this.#decide(raw, recorder as unknown as ServerResponse);
      this.heldAnswers++;
      await gate;
      res.writeHead(held.statusCode, held.headers as Record<string, string>).end(held.text);
      return;
    }
    return this.#decide(raw, res);
  }

  async #decide(raw: string, res: ServerResponse): Promise<void> {
    switch (this.verifyMode) {
      case 'hang':
        return; // reads the request, never answers
      case 'unavailable':
        return problem(res, 503, 'unavailable', this.retryAfter ? { 'Retry-After': this.retryAfter } : {});
      case 'rate_limited':
        return problem(res, 429, 'rate_limited', this.retryAfter ? { 'Retry-After': this.retryAfter } : {});
      case 'error500':
        return problem(res, 500, 'internal_error');
      case 'garbage':
        return json(res, 200, { valid: 'yes', username: 42 });
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Welcome</h1>');
        return;
    }
    let request: { token?: unknown; l1_server?: unknown };
    try {
      request = JSON.parse(raw) as typeof request;
    } catch {
      return problem(res, 400, 'invalid_request');
    }
    this.verifyBodies.push(request);
    if (typeof request.token !== 'string' || request.token === '')
      return problem(res, 400, 'invalid_request');
    const fail = (code: string) => problem(res, 401, code, {}, { valid: false });
    let claims: Record<string, unknown>;
    try {
      if (request.token.length > 4096) return fail('token_invalid');
      ({ payload: claims } = await jwtVerify(request.token, this.#secret, {
        algorithms: ['HS256'],
        currentDate: new Date(this.#now()),
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      }));
    } catch (error) {
      return fail(error instanceof joseErrors.JWTExpired ? 'token_expired' : 'token_invalid');
    }
    if (claims.l2_server !== this.url || typeof claims.username !== 'string') return fail('token_invalid');
    if (this.#revoked.has(sha256(request.token))) return fail('token_revoked');
    if (claims.l1_server !== undefined && claims.l1_server !== request.l1_server)
      return fail('token_scope_mismatch');
    return json(res, 200, {
      valid: true,
      username: claims.username,
      l2_server: claims.l2_server,
      l1_server: claims.l1_server ?? null,
      expires_at: new Date((claims.exp as number) * 1000).toISOString(),
    });
  }

  #authorize(url: URL, res: ServerResponse): void {
    this.counts.authorize++;
    const q = url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    const errorPage = (why: string) => {
      res.writeHead(400, { 'content-type': 'text/html' }).end(`<p>${why}</p>`);
    };
    if (q.get('response_type') !== 'code') return errorPage('response_type');
    if (!clientId || !(redirectUri === clientId || redirectUri.startsWith(`${clientId}/`))) {
      return errorPage('redirect_uri outside the L1 server');
    }
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return errorPage('PKCE');
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(24).toString('base64url');
      this.#codes.set(code, {
        clientId,
        redirectUri,
        challenge: q.get('code_challenge')!,
        username: this.signedInAs,
        expiresAt: this.#now() + 60_000,
        used: false,
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(303, { location: back.href, 'cache-control': 'no-store' }).end();
  }

  async #token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counts.token++;
    const form = new URLSearchParams(await body(req));
    this.tokenRequests.push(form);
    const oauthError = (error: string) => json(res, 400, { error });
    if (form.get('grant_type') !== 'authorization_code') return oauthError('unsupported_grant_type');
    const code = this.#codes.get(form.get('code') ?? '');
    if (!code || code.expiresAt <= this.#now()) return oauthError('invalid_grant');
    if (code.used) {
      if (code.issued) this.revoke(code.issued);
      return oauthError('invalid_grant');
    }
    code.used = true;
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      form.get('client_id') !== code.clientId ||
      form.get('redirect_uri') !== code.redirectUri ||
      challenge !== code.challenge
    ) {
      return oauthError('invalid_grant');
    }
    code.issued = await this.issue(code.username, { l1: code.clientId });
    return json(res, 200, {
      access_token: code.issued,
      token_type: 'Bearer',
      expires_in: 30 * 24 * 3600,
      scope: 'l1',
    });
  }
}

export function decode(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify(value));
}

function problem(
  res: ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): void {
  res
    .writeHead(status, {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      ...headers,
    })
    .end(JSON.stringify({ type: 'about:blank', title: code, status, code, detail: code, ...extra }));
}
