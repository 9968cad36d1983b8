// What `l2 secret rotate` prints: how to replace the JWT secret on every instance without signing anybody out.
// Tokens name their secret (`kid`); an instance verifies with `jwt_secret` and `jwt_secret.previous`, signs with
// `jwt_secret` only.

export function rotationSteps(current: string, previous: string | null): string {
  return [
    `The current JWT secret is ${current} (jwt_secret in SECRETS_DIR)${
      previous ? `; the previous one, still verifying its tokens, is ${previous} (jwt_secret.previous)` : ''
    }.`,
    ...(previous
      ? [
          '',
          `Steps 2 and 3 replace jwt_secret.previous: tokens signed with ${previous} stop verifying then. Unless`,
          'those holders may be signed out, wait until 30 days after the last rotation (step 4 of it).',
        ]
      : []),
    '',
    'To replace it without signing anybody out, in SECRETS_DIR of every instance (they must all hold the same files):',
    '',
    '  1. Make a new secret (at least 32 bytes):',
    '       openssl rand -base64 48 > jwt_secret.new && chmod 600 jwt_secret.new',
    '  2. With more than one instance, let every instance accept it before any signs with it:',
    '       cp jwt_secret.new jwt_secret.previous',
    '     and restart the instances one by one. (A single instance can skip this step.)',
    '  3. Make it the current secret, keeping the old one for its tokens:',
    '       mv jwt_secret jwt_secret.previous && mv jwt_secret.new jwt_secret',
    '     and restart the instances one by one. New tokens name the new secret; the old ones keep verifying.',
    '  4. After 30 days (the longest a token lives), remove jwt_secret.previous and restart the instances.',
    '',
    'Forms open in browsers at a restart fail once (their CSRF token was made with the old secret): reload them.',
    `Check each step with \`l2 secret rotate\`: it names the secrets each instance reads.`,
  ].join('\n');
}

/**
 * What `l2 secret rotate` prints about the notice signing key (API.md §2.1): L1 servers verify notices against the
 * published JWKS, which they keep up to 10 minutes (jose's default, the kit's) and refetch for an unknown `kid`, so
 * the next key is published before anything is signed with it.
 */
export function noticeKeyRotationSteps(current: string, previous: string | null): string {
  return [
    `The notice signing key is ${current} (notice_signing_key in SECRETS_DIR, its RFC 7638 thumbprint)${
      previous ? `; ${previous} (notice_signing_key.previous) is published beside it` : ''
    }.`,
    '',
    'To replace it without an L1 server refusing a notice, in SECRETS_DIR of every instance:',
    '',
    '  1. Make a new P-256 key:',
    '       openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out notice_signing_key.new',
    '       chmod 600 notice_signing_key.new',
    '  2. Publish it before anything signs with it:',
    '       cp notice_signing_key.new notice_signing_key.previous',
    '     and restart the instances one by one. /.well-known/jwks.json now lists both keys.',
    '  3. Wait at least 10 minutes (the longest an L1 server keeps the key set), then make it current:',
    '       mv notice_signing_key notice_signing_key.previous && mv notice_signing_key.new notice_signing_key',
    '     and restart the instances one by one. Notices are signed when sent, so retries use the new key too.',
    '  4. Remove notice_signing_key.previous whenever you like (nothing signed with it is sent again) and restart.',
    '',
    'An L1 server that meets an unknown key id refetches the set; one that cannot yet answers 503 and L2 retries.',
  ].join('\n');
}

/**
 * What `l2 secret rotate` prints about the ID-token signing key (API.md §2.5): clients verify ID tokens against the
 * published JWKS and refetch it for an unknown `kid`, so the next key is published before anything is signed with it.
 */
export function idTokenKeyRotationSteps(current: string, previous: string | null): string {
  return [
    `The ID-token signing key is ${current} (id_token_signing_key in SECRETS_DIR, its RFC 7638 thumbprint)${
      previous ? `; ${previous} (id_token_signing_key.previous) is published beside it` : ''
    }.`,
    '',
    'To replace it without a client refusing an ID token, in SECRETS_DIR of every instance:',
    '',
    '  1. Make a new RSA key (2048 to 4096 bits):',
    '       openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out id_token_signing_key.new',
    '       chmod 600 id_token_signing_key.new',
    '  2. Publish it before anything signs with it:',
    '       cp id_token_signing_key.new id_token_signing_key.previous',
    '     and restart the instances one by one. /.well-known/jwks.json now lists both keys.',
    '  3. Wait at least 10 minutes (the longest a client keeps the key set), then make it current:',
    '       mv id_token_signing_key id_token_signing_key.previous && mv id_token_signing_key.new id_token_signing_key',
    '     and restart the instances one by one.',
    '  4. Remove id_token_signing_key.previous after 10 minutes more (an ID token is checked when it is received;',
    '     it lives 5 minutes) and restart.',
  ].join('\n');
}
