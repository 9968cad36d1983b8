// A real L2 serving its transparency log under its own address (PUBLIC_URL = where it listens), for monitors to
// read as any outsider would: `l2 tlog verify`, the L1 kit's watch.
import { appendActivities } from '../contract/transparency-log.contract.js';
import { startTestServer, type TestServer } from './test-server.js';
import { testVerifierKey } from './tlog-test-key.js';

/** The server and the verifier key of its log (`GET /tlog/key`, as an operator would publish it). */
export async function startServedLog(entries: number): Promise<{ server: TestServer; verifierKey: string }> {
  const server = await startTestServer({ store: 'memory', publicUrlIsServer: true });
  await growServedLog(server, entries);
  return { server, verifierKey: testVerifierKey(`${new URL(server.url).host}/tlog`) };
}

/** Appends `count` activities and waits for a checkpoint that covers them. */
export async function growServedLog(server: TestServer, count: number): Promise<void> {
  await appendActivities(server.parts.store, count);
  await server.parts.services.transparencyLog.cover(await server.parts.store.activities.nextIdx());
}
