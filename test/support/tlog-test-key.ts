// The transparency log's signing key every test server and test store uses (a fixed Ed25519 key, PKCS#8 PEM, as
// the file `tlog_signing_key` holds it), so that tests can check checkpoints against its verifier key.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ed25519KeyPairFromPkcs8Pem, nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import type { FullLogCheck } from '../../src/application/ports/full-log-check.js';
import type { ProblemLog } from '../../src/application/ports/problem-log.js';
import type { TransparencyLogStore } from '../../src/application/ports/transparency-log-store.js';
import {
  IGNORE_TRANSPARENCY,
  type TransparencyObserver,
} from '../../src/application/ports/transparency-observer.js';
import { TransparencyLog } from '../../src/application/services/transparency/transparency-log.js';
import { formatVerifierKey, noteSigner, type NoteSigner } from '@l2/tlog';

export const TEST_TLOG_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIBf1k+c5c057NqFl5LNUSyTbDJOn8NiWfrt+b6Mz5zSz
-----END PRIVATE KEY-----
`;

/** The origin of a test server's log (PUBLIC_URL http://l2.test). */
export const TEST_TLOG_ORIGIN = 'l2.test/tlog';

export const testTlogKeyPair = () => ed25519KeyPairFromPkcs8Pem(TEST_TLOG_KEY_PEM);

/** The verifier key (`GET /tlog/key`) of the test key under `origin`. */
export const testVerifierKey = (origin = TEST_TLOG_ORIGIN): string =>
  formatVerifierKey(nodeSha256, origin, testTlogKeyPair().publicKey);

export const testNoteSigner = (origin = TEST_TLOG_ORIGIN): NoteSigner =>
  noteSigner(nodeSha256, origin, testTlogKeyPair());

/** Writes the test key as `tlog_signing_key` into a SECRETS_DIR, beside `jwt_secret`. */
export function writeTestTlogKey(secretsDir: string): void {
  writeFileSync(join(secretsDir, 'tlog_signing_key'), TEST_TLOG_KEY_PEM, { mode: 0o600 });
}

/** The transparency log service of a store, signing with the test key: what the composition root makes. */
export function testTransparencyLog(
  store: TransparencyLogStore,
  options: {
    origin?: string;
    observer?: TransparencyObserver;
    problems?: ProblemLog;
    roundIntervalMs?: number;
    wait?: (ms: number) => Promise<void>;
    fullCheck?: FullLogCheck;
  } = {},
): TransparencyLog {
  return new TransparencyLog(
    store,
    {
      origin: options.origin ?? TEST_TLOG_ORIGIN,
      key: testTlogKeyPair(),
      crypto: nodeSha256,
      verifyEd25519,
      pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
      ...(options.roundIntervalMs === undefined ? {} : { roundIntervalMs: options.roundIntervalMs }),
      ...(options.wait === undefined ? {} : { wait: options.wait }),
      ...(options.fullCheck === undefined ? {} : { fullCheck: options.fullCheck }),
    },
    options.observer ?? IGNORE_TRANSPARENCY,
    options.problems ?? { error: () => {}, warn: () => {} },
  );
}
