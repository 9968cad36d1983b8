// Scenario 9 (issue 23): inbox POSTs whose signature does not verify, naming a key L2 keeps — what any peer can
// send without limit. Each costs at most two RSA verifications of a bounded key (2048–4096 bits, exponent ≤ 2^32),
// so its rate is compared with the machine's RSA verification ceiling.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedHeaders } from '../../src/adapters/outbound/http-signing.js';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface BadSignatureResults {
  readonly load: LoadResult;
  /** Answers per second (`load.rps` counts the 401s expected; any other answer is a warning). */
  readonly answeredPerSecond: number;
}

/** A peer on `host` (127.0.0.1 unless named) serving one actor with its key, and taking whatever its inbox is sent. */
export async function startPeer(
  publicKeyPem: string,
  host = '127.0.0.1',
): Promise<{ server: Server; actor: string; actorFetches: () => number }> {
  let actorFetches = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'GET' && req.url === '/users/peer') {
      actorFetches++;
      const actor = `http://${host}:${(server.address() as AddressInfo).port}/users/peer`;
      res.writeHead(200, { 'content-type': 'application/activity+json' }).end(
        JSON.stringify({
          id: actor,
          type: 'Person',
          inbox: `${actor}/inbox`,
          publicKey: { id: `${actor}#main-key`, owner: actor, publicKeyPem },
        }),
      );
    } else res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const actor = `http://${host}:${(server.address() as AddressInfo).port}/users/peer`;
  return { server, actor, actorFetches: () => actorFetches };
}

/** POSTs with node:http, which sends the Host header the signature names (the service's PUBLIC_URL host). */
export function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function badSignatures(
  base: string,
  publicUrl: string,
  followed: string,
  profile: Profile,
): Promise<BadSignatureResults> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const peer = await startPeer(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  try {
    const signed = async (n: number) => {
      const body = JSON.stringify({
        id: `${peer.actor}#follows/${n}`,
        type: 'Follow',
        actor: peer.actor,
        object: `${publicUrl}/users/${followed}`,
      });
      const headers = await signedHeaders({
        method: 'POST',
        url: `${publicUrl}/inbox`,
        headers: { 'content-type': 'application/activity+json' },
        body,
        key: { keyId: `${peer.actor}#main-key`, privateKey },
        now: new Date(),
      });
      return { body, headers };
    };
    // One honest Follow, so that L2 keeps the key: every later request is checked against it, no fetch.
    const honest = await signed(0);
    const status = await post(`${base}/inbox`, honest.headers, honest.body);
    if (status !== 202) throw new Error(`the honest Follow was answered ${status}`);

    const bad = await signed(1);
    const signature = bad.headers.signature!.replace(/signature="(.)/, (_m, c: string) =>
      c === 'A' ? 'signature="B' : 'signature="A',
    );
    const load = await measure(
      {
        url: `${base}/inbox`,
        method: 'POST',
        headers: { ...bad.headers, signature },
        body: bad.body,
        expectedStatus: 401,
        connections: CONNECTIONS.throughput,
        seconds: profile.throughputSeconds,
      },
      profile.warmUpSeconds,
    );
    return { load, answeredPerSecond: (load.ok + load.non2xx) / load.seconds };
  } finally {
    await new Promise((resolve) => peer.server.close(resolve));
  }
}
