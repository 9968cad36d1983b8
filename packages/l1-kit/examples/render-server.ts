/**
 * An example L1 (render) server on Express that uses all of the kit:
 * - "Sign in with L2" (`/auth/login` → L2 → `/auth/callback`), the token kept server-side in a session;
 * - pages and an API protected by L2 (session cookie for the browser, `Authorization: Bearer` for the API);
 * - revocation notices (`POST /auth/revoke`): a verified notice ends the sessions that hold the revoked token;
 * - the short positive cache, allowed because the notice receiver is mounted;
 * - with L2_TLOG_KEY (the verifier key of <L2_URL>/tlog/key), a watch over L2's transparency log;
 * - with L1_CLIENT_KEY_FILE, document mode: a client metadata document at <L1_URL>/auth/client.json, private_key_jwt
 *   signed with the key in that file (created when missing), L2's notices form-encoded (README, "Document mode").
 *
 *   L2_URL=http://localhost:8200 L1_URL=http://localhost:8300 PORT=8300 npm run example -w @l2/l1-kit
 *
 * In your own server, import from '@l2/l1-kit' and '@l2/l1-kit/express' instead of '../src/…'.
 */
import express from 'express';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createL1Kit, hashToken, watchLog, type L1Kit } from '../src/index.js';
import { protect, routes } from '../src/adapters/express.js';

export interface RenderServerOptions {
  /** L2's URL (its PUBLIC_URL). */
  l2: string;
  /** This server's public URL; default `http://<host>:<port>`. */
  self?: string;
  port?: number;
  host?: string;
  /** 0 (default) asks L2 on every request; up to 60 keeps a valid answer that long. */
  positiveTtlSeconds?: number;
  timeoutMs?: number;
  now?: () => number;
  /** Document mode: the client key file (PKCS#8 PEM, created when missing). Default: an L1 server URL client. */
  clientKeyFile?: string;
}

export interface RenderServer {
  url: string;
  kit: L1Kit;
  /** Signed-in browsers: session id → the user's L2 token and name. */
  sessions: Map<string, { token: string; username: string }>;
  close(): Promise<void>;
}

const SESSION_COOKIE = 'render_session';

export async function startRenderServer(options: RenderServerOptions): Promise<RenderServer> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const url = options.self ?? `http://${host}:${(server.address() as AddressInfo).port}`;

  const kit = createL1Kit({
    l2: options.l2,
    self: url,
    cache: { positiveTtlSeconds: options.positiveTtlSeconds ?? 0 },
    ...(options.clientKeyFile === undefined
      ? {}
      : { client: { keyFile: options.clientKeyFile, name: 'Render example' } }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const sessions = new Map<string, { token: string; username: string }>();
  const sessionOf = (cookie: string | undefined) => {
    const id = /(?:^|;\s*)render_session=([A-Za-z0-9_-]+)/.exec(cookie ?? '')?.[1];
    return id === undefined ? undefined : { id, session: sessions.get(id) };
  };

  const app = express();
  app.disable('x-powered-by');

  // The kit's routes: POST /auth/revoke, GET /auth/login, GET /auth/callback.
  app.use(
    routes(kit, {
      onSignIn: ({ user, token }, { res }) => {
        const id = randomBytes(24).toString('base64url');
        sessions.set(id, { token, username: user.username });
        res.cookie(SESSION_COOKIE, id, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          secure: url.startsWith('https:'),
        });
      },
      onLogout: ({ tokenHash }) => {
        for (const [id, session] of sessions) if (hashToken(session.token) === tokenHash) sessions.delete(id);
      },
    }),
  );

  app.get('/', (req, res) => {
    const session = sessionOf(req.headers.cookie)?.session;
    res
      .type('html')
      .send(
        session
          ? `<p>Signed in as ${escape(session.username)}. <a href="/me">Me</a></p>`
          : '<p><a href="/auth/login?returnTo=/me">Sign in with L2</a></p>',
      );
  });

  // Browser pages: the token comes from the session; L2 decides on every request (or the short cache).
  const fromSession = protect(kit, { getToken: (req) => sessionOf(req.headers.cookie)?.session?.token });
  app.get('/me', fromSession, (req, res) => {
    const { user } = req.l2!;
    res.json({ username: user.username, l1_server: user.l1Server, expires_at: user.expiresAt.toISOString() });
  });

  // The API: `Authorization: Bearer <token>`.
  app.post('/render', protect(kit), (req, res) => {
    res.status(201).json({ rendered_for: req.l2!.user.username });
  });

  // Signing out here forgets the session only; signing out at L2 revokes the token (and a notice follows).
  app.post('/logout', (req, res) => {
    const current = sessionOf(req.headers.cookie);
    if (current) sessions.delete(current.id);
    res.clearCookie(SESSION_COOKIE, { path: '/' }).redirect(303, '/');
  });

  server.on('request', app);
  return {
    url,
    kit,
    sessions,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const l2 = process.env.L2_URL ?? 'http://localhost:8200';
  const port = Number(process.env.PORT ?? 8300);
  const started = await startRenderServer({
    l2,
    port,
    host: process.env.HOST ?? '127.0.0.1',
    ...(process.env.L1_URL ? { self: process.env.L1_URL } : {}),
    positiveTtlSeconds: Number(process.env.CACHE_SECONDS ?? 0),
    ...(process.env.L1_CLIENT_KEY_FILE ? { clientKeyFile: process.env.L1_CLIENT_KEY_FILE } : {}),
  });
  await started.kit.ready(); // discovery: fails here if L2_URL is not L2's issuer
  console.log(`render server at ${started.url}, trusting L2 at ${started.kit.l2}`);
  if (process.env.L2_TLOG_KEY) {
    // L2's transparency log, checked every minute with the key you fetched once from <L2_URL>/tlog/key.
    const watch = watchLog({
      l2,
      verifierKey: process.env.L2_TLOG_KEY,
      state: process.env.L2_TLOG_STATE ?? 'l2-tlog.json',
    });
    watch.on('verified', (e) => console.log(e.description));
    watch.on('unreachable', (e) => console.warn(e.description));
    watch.on('misbehaved', (e) => console.error(e.description));
    watch.on('fork', (e) => console.error(`${e.description}\n${e.evidence}`));
  }
}
