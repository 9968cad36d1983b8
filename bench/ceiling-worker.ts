// One core's sequential rate of one expensive operation, for a fixed time. Runs in its own process.
// Usage: node --import tsx bench/ceiling-worker.ts '{"kind":"bcrypt"|"rsa"|"rsa-sign"|"rsa-verify"|"ecdsa-verify"|"id-token-sign",…}'
import bcrypt from 'bcrypt';
import { SignJWT } from 'jose';
import { createHash, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import type { CeilingSample, CeilingSpec } from './ceiling-types.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as CeilingSpec;

/** What an HTTP signature signs: a draft-cavage signing string of a delivery, about 300 bytes. */
const signingString = Buffer.from(
  `(request-target): post /inbox\nhost: peer.example\ndate: ${new Date().toUTCString()}\n` +
    `digest: SHA-256=${randomBytes(32).toString('base64')}\ncontent-type: application/activity+json\n` +
    'accept: application/activity+json',
);
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signature = sign('sha256', signingString, privateKey);

/**
 * What a passkey signs: its authenticator data (37 bytes: the relying party's hash, flags, counter) and the hash of
 * the client data, with ES256 (ECDSA P-256, SHA-256), verified with a key object made once — the verification alone,
 * the most a machine can do (the service also parses the key from its COSE form on each sign-in).
 */
const assertion = Buffer.concat([randomBytes(37), createHash('sha256').update(randomBytes(150)).digest()]);
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ecSignature = sign('sha256', assertion, ec.privateKey);

/**
 * An ID token as L2 signs one for the bench's code flow (scope=openid, a nonce; src/domain/openid.ts): the same
 * claims and header, the same library (jose's SignJWT) and an RSA-2048 key object, as
 * src/adapters/crypto/id-token-signing-keys.ts signs with the `id_token_signing_key` bench/workspace.ts writes.
 */
const idTokenKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const idTokenKid = randomBytes(32).toString('base64url');
const signIdToken = () => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: 'http://l2.bench.localhost',
    sub: 'bench_client',
    aud: 'http://127.0.0.1:9',
    azp: 'http://127.0.0.1:9',
    iat: now,
    exp: now + 600,
    auth_time: now - 60,
    nonce: randomBytes(16).toString('base64url'),
    amr: ['pwd'],
    sid: randomBytes(16).toString('base64url'),
  })
    .setProtectedHeader({ alg: 'RS256', kid: idTokenKid, typ: 'JWT' })
    .sign(idTokenKey);
};

const operation: () => unknown =
  spec.kind === 'id-token-sign'
    ? signIdToken
    : spec.kind === 'bcrypt'
      ? () => bcrypt.hashSync(randomBytes(16).toString('hex'), spec.bcryptCost)
      : spec.kind === 'rsa-sign'
        ? () => sign('sha256', signingString, privateKey)
        : spec.kind === 'rsa-verify'
          ? () => verify('sha256', signingString, publicKey, signature)
          : spec.kind === 'ecdsa-verify'
            ? () => verify('sha256', assertion, ec.publicKey, ecSignature)
            : () =>
                generateKeyPairSync('rsa', {
                  modulusLength: 2048,
                  publicKeyEncoding: { type: 'spki', format: 'pem' },
                  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
                });

// jose signs asynchronously (WebCrypto): each signature is awaited before the next, one at a time as the others.
const first = await operation(); // warm-up, not counted
const started = process.hrtime.bigint();
const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
let count = 0;
// At least three, so that even a slow machine's short run is not one sample.
while (elapsed() < spec.seconds || count < 3) {
  const pending = operation();
  if (pending instanceof Promise) await pending;
  count++;
}
const seconds = elapsed();
const sample: CeilingSample = {
  kind: spec.kind,
  count,
  seconds,
  perSecond: count / seconds,
  ...(typeof first === 'string' ? { bytes: first.length } : {}),
};
console.log(JSON.stringify(sample));
