// `npm run bench:paired -- <other checkout> [rounds] [seconds]`: this build against another one (its `npm run build`
// done), both `node dist/main.js` in production on SQLite, side by side on this machine. Each line runs on one, then
// the other, `rounds` times (the order swapped every round), so that whatever else the machine does falls on both;
// it prints each side's median rps, the ratio this ÷ other, and every run. `PAIRED_LINES=verify,actor` picks lines.
import { join, resolve } from 'node:path';
import { signIn, type Tokens } from './http.js';
import { runLoad } from './load-runner.js';
import type { LoadSpec } from './load-types.js';
import { CONNECTIONS } from './profile.js';
import { startL2, type RunningServer } from './servers.js';
import { createWorkspace } from './workspace.js';

const PUBLIC_URL = 'http://l2.bench.localhost';
const [other, roundsArg = '5', secondsArg = '5'] = process.argv.slice(2);
if (other === undefined)
  throw new Error('usage: npm run bench:paired -- <other checkout> [rounds] [seconds]');
const rounds = Number(roundsArg);
const seconds = Number(secondsArg);

interface Side {
  readonly server: RunningServer;
  readonly tokens: Tokens;
}

type Line = (side: Side) => LoadSpec;

const throughput = { connections: CONNECTIONS.throughput, seconds };
const LINES: Record<string, Line> = {
  verify: ({ server, tokens }) => ({
    ...throughput,
    url: `${server.url}/auth/verify`,
    method: 'POST',
    body: JSON.stringify({ token: tokens.session }),
  }),
  'verify scoped': ({ server, tokens }) => ({
    ...throughput,
    url: `${server.url}/auth/verify`,
    method: 'POST',
    body: JSON.stringify({ token: tokens.scoped, l1_server: tokens.l1Server }),
  }),
  introspection: ({ server, tokens }) => ({
    ...throughput,
    url: `${server.url}/oauth/introspect`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: tokens.session }).toString(),
  }),
  // API.md §2.5: a stock resource server names itself as client_id instead of resource (the audience rule).
  'introspection by client_id': ({ server, tokens }) => ({
    ...throughput,
    url: `${server.url}/oauth/introspect`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: tokens.scoped, client_id: tokens.l1Server }).toString(),
  }),
  webfinger: ({ server }) => ({
    ...throughput,
    url: `${server.url}/.well-known/webfinger?resource=acct:alice@${new URL(PUBLIC_URL).host}`,
  }),
  actor: ({ server }) => ({
    ...throughput,
    url: `${server.url}/users/alice`,
    headers: { accept: 'application/activity+json' },
  }),
  'asset writes': ({ server, tokens }) => ({
    url: `${server.url}/assets`,
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.session}`, accept: 'application/json' },
    connections: CONNECTIONS.writes,
    seconds,
    uniqueAsset: true,
  }),
  checkpoint: ({ server }) => ({ ...throughput, url: `${server.url}/tlog/checkpoint` }),
  tile: ({ server }) => ({ ...throughput, url: `${server.url}/tlog/tile/0/000` }),
};

/** 256 assets, so that the log has a full tile (`/tlog/tile/0/000`) before anything is measured. */
async function fillFirstTile({ server, tokens }: Side): Promise<void> {
  const write = (n: number) =>
    fetch(`${server.url}/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.session}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `seed-${n}`,
        content_hash: `sha256:${n.toString(16).padStart(64, '0')}`,
        media_type: 'image/png',
        url: `https://cdn.example/seed-${n}.png`,
      }),
    }).then((answer) => {
      if (answer.status !== 201) throw new Error(`seeding asset ${n}: ${answer.status}`);
    });
  for (let n = 0; n < 256; n += 8) await Promise.all(Array.from({ length: 8 }, (_, i) => write(n + i)));
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const workspace = createWorkspace();
const sides: Side[] = [];
try {
  for (const [name, main] of [
    ['this', undefined],
    ['other', join(resolve(other), 'dist', 'main.js')],
  ] as const) {
    const server = await startL2({
      storePath: join(workspace.dir, name, 'l2.sqlite'),
      secretsDir: workspace.secretsDir,
      publicUrl: PUBLIC_URL,
      bcryptCost: 10,
      ...(main === undefined ? {} : { main }),
    });
    const side = {
      server,
      tokens: await signIn(server.url, { username: 'alice', password: 'bench pw 1' }, true),
    };
    await fillFirstTile(side);
    sides.push(side);
  }
  const [mine, theirs] = sides as [Side, Side];
  const picked = process.env.PAIRED_LINES?.split(',');
  for (const [name, line] of Object.entries(LINES)) {
    if (picked && !picked.includes(name)) continue;
    for (const side of sides) await runLoad({ ...line(side), seconds: 2 }); // warm-up, unmeasured
    const rps = { mine: [] as number[], theirs: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['theirs', 'mine'] as const) : (['mine', 'theirs'] as const);
      for (const who of order) rps[who].push((await runLoad(line(who === 'mine' ? mine : theirs))).rps);
    }
    const [a, b] = [median(rps.mine), median(rps.theirs)];
    const runs = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
    process.stdout.write(
      `${name.padEnd(14)} this ${a.toFixed(0).padStart(7)} rps, other ${b.toFixed(0).padStart(7)} rps, ` +
        `this ÷ other ${(a / b).toFixed(2)}   (this: ${runs(rps.mine)}; other: ${runs(rps.theirs)})\n`,
    );
  }
} finally {
  await Promise.all(sides.map((side) => side.server.stop()));
  workspace.remove();
}
