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
