// The passkey sign-in load, in its own process (the clients' ES256 signatures never share the service's cores'
// event loop): one account with a passkey per client, then each client signs in again and again — a fresh challenge
// (POST /auth/login/passkey/options), its assertion signed by the client's software authenticator, the sign-in (POST
// /auth/login/passkey) — for the time given. Usage: node --import tsx bench/passkey-sign-in.ts '<spec as JSON>';
// prints one PasskeySignInResult as JSON.
import { SoftAuthenticator } from '../test/support/soft-authenticator.js';
import { LatencyRecorder } from './latency-recorder.js';
import type { PasskeySignInResult, PasskeySignInSpec } from './passkey-sign-in-types.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as PasskeySignInSpec;

async function post(
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${spec.base}${path}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json().catch(() => null)) as unknown };
}

async function must(path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
  const answer = await post(path, body, token);
  if (answer.status >= 300) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json as Record<string, unknown>;
}

/** One account, one passkey per client (each its own credential, so their counters never race). */
const username = `pk${process.pid}_${Date.now().toString(36)}`.slice(0, 30);
const registered = await must('/auth/register', { username, password: spec.password });
const token = registered.access_token as string;
const clients: SoftAuthenticator[] = [];
for (let i = 0; i < spec.clients; i++) {
  const authenticator = new SoftAuthenticator(spec.origin);
  const options = await must('/auth/passkeys/options', undefined, token);
  await must(
    '/auth/passkeys',
    { name: `Device ${i}`, response: authenticator.register(options), current_password: spec.password },
    token,
  );
  clients.push(authenticator);
}

/** One sign-in: its time in ms, or null when it was refused. */
async function signIn(authenticator: SoftAuthenticator): Promise<number | null> {
  const started = performance.now();
  const options = await must('/auth/login/passkey/options');
  const answer = await post('/auth/login/passkey', { response: authenticator.signIn(options) });
  return answer.status === 200 ? performance.now() - started : null;
}

for (const authenticator of clients)
  if ((await signIn(authenticator)) === null) throw new Error('warm-up refused');

const latencies = new LatencyRecorder();
let ok = 0;
let refused = 0;
const started = performance.now();
const deadline = started + spec.seconds * 1000;
await Promise.all(
  clients.map(async (authenticator) => {
    while (performance.now() < deadline) {
      const ms = await signIn(authenticator);
      if (ms === null) refused++;
      else {
        ok++;
        latencies.record(ms);
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const result: PasskeySignInResult = {
  clients: spec.clients,
  seconds,
  ok,
  refused,
  perSecond: ok / seconds,
  latencyMs: latencies.percentiles(),
};
console.log(JSON.stringify(result));
