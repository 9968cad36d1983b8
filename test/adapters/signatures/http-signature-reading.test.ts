import { expect } from 'chai';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { signedHeaders } from '../../../src/adapters/outbound/http-signing.js';
import {
  readSignature,
  verifyClaim,
  type ReceivedRequest,
} from '../../../src/adapters/signatures/http-signature-reading.js';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const NOW = new Date('2026-11-22T10:00:00.000Z');
const body = JSON.stringify({ type: 'Follow', actor: 'https://peer.example/users/bob' });
const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;

/** A POST to /users/alice/inbox as received, signed over `names` with our signer unless headers say otherwise. */
async function signedPost(overrides: Record<string, string | undefined> = {}): Promise<ReceivedRequest> {
  const headers = await signedHeaders({
    method: 'POST',
    url: 'https://l2.example/users/alice/inbox',
    headers: { 'content-type': 'application/activity+json' },
    body,
    key: { keyId: 'https://peer.example/users/bob#main-key', privateKey: keys.privateKey },
    now: NOW,
  });
  return {
    method: 'POST',
    target: '/users/alice/inbox',
    scheme: 'https',
    headers: { ...headers, ...overrides },
    body: Buffer.from(body),
  };
}

const reason = (request: ReceivedRequest, now = NOW): string => {
  const read = readSignature(request, now);
  return read.ok ? 'ok' : read.reason;
};

describe('HTTP signatures (draft-cavage)', () => {
  it('signs what it reads back and verifies with the public key, and not with another', async () => {
    const read = readSignature(await signedPost(), NOW);
    if (!read.ok) throw new Error(read.reason);
    expect(read.claim.keyId).to.equal('https://peer.example/users/bob#main-key');
    expect(verifyClaim(read.claim, keys.publicKey)).to.equal(true);
    expect(verifyClaim(read.claim, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey)).to.equal(
      false,
    );
    expect((await signedPost()).headers.digest).to.equal(digest);
  });

  it('accepts a Date up to 5 minutes away either way, and refuses one further', async () => {
    const request = await signedPost();
    expect(reason(request, new Date(NOW.getTime() + 5 * 60_000))).to.equal('ok');
    expect(reason(request, new Date(NOW.getTime() - 5 * 60_000))).to.equal('ok');
    expect(reason(request, new Date(NOW.getTime() + 5 * 60_000 + 1000))).to.match(/too old/);
    expect(reason(request, new Date(NOW.getTime() - 5 * 60_000 - 1000))).to.match(/in the future/);
  });

  it('refuses a Date that is not an RFC 9110 IMF-fixdate', async () => {
    for (const date of [
      NOW.toISOString(),
      'Sunday, 22-Nov-26 10:00:00 GMT',
      'Sun Nov 22 10:00:00 2026',
      '',
    ]) {
      expect(reason(await signedPost({ date })), date).to.match(/RFC 9110/);
    }
  });

  it('refuses a signature that does not cover (request-target), host, date and digest', async () => {
    const request = await signedPost();
    for (const [covered, missing] of [
      ['host date digest', '(request-target)'],
      ['(request-target) date digest', 'host'],
      ['(request-target) host digest', 'date'],
      ['(request-target) host date', 'digest'],
    ]) {
      const signature = request.headers.signature!.replace(/headers="[^"]*"/, `headers="${covered}"`);
      expect(reason({ ...request, headers: { ...request.headers, signature } })).to.equal(
        `the signature must cover ${missing}`,
      );
    }
  });

  it('refuses other algorithms, a missing keyId, and a header it cannot parse', async () => {
    const request = await signedPost();
    const withSignature = (signature: string) => ({ ...request, headers: { ...request.headers, signature } });
    expect(reason(withSignature(request.headers.signature!.replace('rsa-sha256', 'hmac-sha256')))).to.match(
      /not supported/,
    );
    expect(reason(withSignature(request.headers.signature!.replace(/keyId="[^"]*",/, '')))).to.match(
      /needs keyId/,
    );
    expect(reason(withSignature('keyId=unquoted'))).to.match(/cannot be parsed/);
  });

  it('refuses a missing or wrong Digest, and a Digest without SHA-256', async () => {
    expect(reason(await signedPost({ digest: undefined }))).to.match(/must carry Digest/);
    expect(reason(await signedPost({ digest: 'SHA-256=AAAA' }))).to.match(/does not match/);
    expect(reason(await signedPost({ digest: 'SHA-512=AAAA' }))).to.match(/no SHA-256/);
  });

  it('reads the signature from "Authorization: Signature …" too, and says when there is none', async () => {
    const request = await signedPost();
    const { signature, ...rest } = request.headers;
    expect(reason({ ...request, headers: { ...rest, authorization: `Signature ${signature}` } })).to.equal(
      'ok',
    );
    expect(reason({ ...request, headers: rest })).to.match(/not signed/);
  });

  it('tries the request target without its query too, as some peers sign only the path', async () => {
    const request = await signedPost();
    const read = readSignature({ ...request, target: '/users/alice/inbox?x=1' }, NOW);
    expect(read.ok && verifyClaim(read.claim, keys.publicKey)).to.equal(true);
  });
});

describe('HTTP message signatures (RFC 9421) as read', () => {
  const contentDigest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
  const request = (input: string, extra: Record<string, string> = {}): ReceivedRequest => ({
    method: 'POST',
    target: '/inbox',
    scheme: 'https',
    headers: {
      host: 'l2.example',
      'content-digest': contentDigest,
      'signature-input': input,
      signature: 'sig1=:AAAA:',
      ...extra,
    },
    body: Buffer.from(body),
  });
  const created = Math.floor(NOW.getTime() / 1000);
  const keyid = 'keyid="https://peer.example/users/bob#main-key"';

  it('builds the signature base from the covered components and the parameters as given', () => {
    const read = readSignature(
      request(`sig1=("@method" "@target-uri" "content-digest");created=${created};${keyid}`),
      NOW,
    );
    if (!read.ok) throw new Error(read.reason);
    expect(read.claim.signedData[0]!.toString()).to.equal(
      [
        '"@method": POST',
        '"@target-uri": https://l2.example/inbox',
        `"content-digest": ${contentDigest}`,
        `"@signature-params": ("@method" "@target-uri" "content-digest");created=${created};${keyid}`,
      ].join('\n'),
    );
  });

  for (const [what, input, expected] of [
    ['no created time', `sig1=("@method" "@target-uri" "content-digest");${keyid}`, /created/],
    [
      'an old created time',
      `sig1=("@method" "@target-uri" "content-digest");created=${created - 600};${keyid}`,
      /too old/,
    ],
    [
      'an expired signature',
      `sig1=("@method" "@target-uri" "content-digest");created=${created};expires=${created - 1};${keyid}`,
      /expired/,
    ],
    [
      'another algorithm',
      `sig1=("@method" "@target-uri" "content-digest");created=${created};alg="ecdsa-p256-sha256";${keyid}`,
      /not supported/,
    ],
    ['no @method', `sig1=("@target-uri" "content-digest");created=${created};${keyid}`, /@method/],
    ['no content-digest', `sig1=("@method" "@target-uri");created=${created};${keyid}`, /content-digest/],
    [
      'a component with parameters',
      `sig1=("@method" "@target-uri" "content-digest";sf);created=${created};${keyid}`,
      /parameters/,
    ],
    ['no keyid', `sig1=("@method" "@target-uri" "content-digest");created=${created}`, /keyid/],
    ['a malformed header', 'sig1=(', /cannot be parsed/],
  ] as const) {
    it(`refuses ${what}`, () => {
      expect(reason(request(input))).to.match(expected);
    });
  }

  it('refuses a Content-Digest that does not match the body', () => {
    const input = `sig1=("@method" "@target-uri" "content-digest");created=${created};${keyid}`;
    expect(reason(request(input, { 'content-digest': 'sha-256=:AAAA:' }))).to.match(/does not match/);
  });
});
