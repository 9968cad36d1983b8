// The fan-out floor: what this machine allows a process that does nothing but the deliveries themselves. The same
// signed POSTs L2 sends (draft-cavage RSA-SHA256 on libuv's thread pool, undici's dispatcher, at most 2 at once per
// host and 512 in all, activities in order), to the same fake servers, with no store, no queue, no retries, no
// publishing. L2's fan-out divided by this rate is what its durable queue and publishing cost; this rate divided by
// the signing ceiling is how far any Node process gets on this machine. Runs in its own process.
// Usage: node --import tsx bench/fan-out-floor.ts '{"ports":[…],"activities":20}'
// Prints {"startedAt":<epoch ms>} when the first delivery starts, then exits once every delivery was answered.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { promisify } from 'node:util';
import { Agent } from 'undici';

interface Spec {
  readonly ports: readonly number[];
  readonly activities: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const PER_HOST = 2;
const IN_FLIGHT = 512;
const signAsync = promisify(sign) as (algorithm: string, data: Buffer, key: unknown) => Promise<Buffer>;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyId = 'http://l2.bench.localhost/users/fanout#main-key';
const agent = new Agent({ connections: 32, keepAliveTimeout: 30_000 });

/** A body the size of one of L2's signed Create activities (about 2 KiB), with the index the hosts look for. */
const bodies = Array.from({ length: spec.activities }, (_, idx) =>
  JSON.stringify({
    '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
    id: `http://l2.bench.localhost/activities/${idx}`,
    type: 'Create',
    actor: 'http://l2.bench.localhost/users/fanout',
    object: { type: 'Image', name: `fanout-${idx}`, content: 'x'.repeat(1200) },
    signature: { type: 'RsaSignature2017', signatureValue: 'y'.repeat(344) },
  }),
);
const digests = bodies.map((body) => `SHA-256=${createHash('sha256').update(body).digest('base64')}`);

async function deliver(port: number, idx: number): Promise<void> {
  const host = `127.0.0.1:${port}`;
  const date = new Date().toUTCString();
  const type = 'application/activity+json';
  const signed =
    `(request-target): post /inbox\nhost: ${host}\ndate: ${date}\ndigest: ${digests[idx]}\n` +
    `content-type: ${type}\naccept: ${type}`;
  const signature = await signAsync('sha256', Buffer.from(signed), privateKey);
  const headers = {
    'content-type': type,
    accept: type,
    host,
    date,
    digest: digests[idx]!,
    signature:
      `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest content-type accept",` +
      `signature="${signature.toString('base64')}"`,
    'user-agent': 'L2-bench-floor',
  };
  await new Promise<void>((resolve, reject) =>
    agent.dispatch(
      { origin: `http://${host}`, path: '/inbox', method: 'POST', headers, body: bodies[idx] },
      {
        onRequestStart: () => {},
        onResponseEnd: () => resolve(),
        onResponseError: (_, error) => reject(error),
      },
    ),
  );
}

// Activity by activity, each to every host, as the queue orders them; a host takes its next once one of its two
// is answered.
const pending = spec.ports.map((port) => ({ port, next: 0, running: 0 }));
let running = 0;
let left = spec.ports.length * spec.activities;
console.log(JSON.stringify({ startedAt: Date.now() }));
await new Promise<void>((resolve, reject) => {
  const pump = () => {
    for (const host of pending) {
      while (running < IN_FLIGHT && host.running < PER_HOST && host.next < spec.activities) {
        const idx = host.next++;
        host.running++;
        running++;
        deliver(host.port, idx).then(() => {
          host.running--;
          running--;
          if (--left === 0) resolve();
          else pump();
        }, reject);
      }
    }
  };
  pump();
});
await agent.close();
