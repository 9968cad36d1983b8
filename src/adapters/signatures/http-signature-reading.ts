// Reading the HTTP signatures of incoming requests as the fediverse sends them: draft-cavage-12 (what every peer
// sends) and RFC 9421 HTTP Message Signatures (Mastodon 4.5, Fedify). Signing is outbound/http-signing.ts.
import { createHash, verify as verifyWith, type KeyObject } from 'node:crypto';
import {
  parseDictionary,
  serializeInnerList,
  type BareItem,
  type Dictionary,
  type InnerList,
  type Item,
} from 'structured-headers';
import type { SignatureRefusal } from '../../application/ports/signature-verifier.js';

/** How far a signature's time may be from ours, either way. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;

/** A request as received, for verifying: header names lower-case, repeated headers joined with ", ". */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly target: string;
  /** The scheme the service is reached at (from PUBLIC_URL), for RFC 9421's `@target-uri`. */
  readonly scheme: 'http' | 'https';
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
}

/** The kind of key a signature's algorithm names; null when the algorithm leaves it to the key (`hs2019`). */
export type SignatureKeyType = 'rsa' | 'ed25519' | null;

/** What a signature claims before the key is known: who signed, and what to check the signature against. */
export interface SignatureClaim {
  readonly keyId: string;
  /**
   * The candidate signed strings, any of which may verify: one, or for a cavage signature of a target with a query
   * also the string without it (implementations disagree on the query). At most two verifications per request.
   */
  readonly signedData: readonly Buffer[];
  readonly signature: Buffer;
  readonly keyType: SignatureKeyType;
}

export type ClaimResult =
  { ok: true; claim: SignatureClaim } | { ok: false; refusal: SignatureRefusal; reason: string };

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const refuse = (reason: string, refusal: SignatureRefusal = 'malformed'): ClaimResult => ({
  ok: false,
  refusal,
  reason,
});

/**
 * Whether the claim's signature verifies with `publicKey`: RSASSA-PKCS1-v1_5 with SHA-256 for an RSA key (what
 * `rsa-sha256`, `hs2019` with an RSA key, and `rsa-v1_5-sha256` mean), Ed25519 for an Ed25519 key. A key of another
 * kind than the algorithm names never verifies. Keys are bounded beforehand (see peer-public-keys.ts), so each
 * verification costs at most a 4096-bit RSA check with a 32-bit exponent.
 */
export function verifyClaim(claim: SignatureClaim, publicKey: KeyObject): boolean {
  const keyType = publicKey.asymmetricKeyType === 'ed25519' ? 'ed25519' : 'rsa';
  if (claim.keyType !== null && claim.keyType !== keyType) return false;
  const digest = keyType === 'ed25519' ? null : 'sha256';
  return claim.signedData.some((data) => {
    try {
      return verifyWith(digest, data, publicKey, claim.signature);
    } catch {
      return false;
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Verifying: both forms check the time and the body digest and say what must be covered, then leave the key to the
// caller.

/** Reads whichever signature the request carries (RFC 9421 when `Signature-Input` is present). */
export function readSignature(request: ReceivedRequest, now: Date): ClaimResult {
  if (request.headers['signature-input'] !== undefined) return readRfc9421(request, now);
  if (request.headers.signature !== undefined) return readCavage(request, now);
  if (request.headers.authorization?.startsWith('Signature ')) {
    return readCavage(
      { ...request, headers: { ...request.headers, signature: request.headers.authorization.slice(10) } },
      now,
    );
  }
  return refuse('the request is not signed (no Signature or Signature-Input header)', 'unsigned');
}

/** An RFC 9110 IMF-fixdate, the only form of `Date` a signature may rely on. */
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

function parseHttpDate(value: string): Date | null {
  if (!IMF_FIXDATE.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function outsideWindow(time: Date, now: Date): string | null {
  const skew = time.getTime() - now.getTime();
  if (Math.abs(skew) <= SIGNATURE_WINDOW_MS) return null;
  return skew < 0 ? 'the signature is too old (more than 5 minutes)' : 'the signature is dated in the future';
}

/** `Digest: SHA-256=<base64>` (RFC 3230; other algorithms may be listed too, SHA-256 must be one). */
function checkDigest(header: string | undefined, body: Buffer): string | null {
  if (header === undefined) return 'a request with a body must carry Digest';
  const expected = sha256(body);
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim().toLowerCase() === 'sha-256') {
      const given = Buffer.from(part.slice(at + 1).trim(), 'base64');
      return given.equals(expected) ? null : 'Digest does not match the body';
    }
  }
  return 'Digest has no SHA-256 value';
}

const CAVAGE_PARAM = /\s*([A-Za-z]+)\s*=\s*(?:"([^"]*)"|(\d+))\s*(,|$)/y;

export function parseCavageParams(header: string): Map<string, string> | null {
  const params = new Map<string, string>();
  CAVAGE_PARAM.lastIndex = 0;
  while (CAVAGE_PARAM.lastIndex < header.length) {
    const match = CAVAGE_PARAM.exec(header);
    if (!match) return null;
    params.set(match[1]!.toLowerCase(), match[2] ?? match[3]!);
    if (match[4] === '') break;
  }
  return params;
}

function readCavage(request: ReceivedRequest, now: Date): ClaimResult {
  const params = parseCavageParams(request.headers.signature ?? '');
  if (!params) return refuse('the Signature header cannot be parsed');
  const keyId = params.get('keyid');
  const signature = params.get('signature');
  if (!keyId || !signature) return refuse('the Signature header needs keyId and signature');
  const algorithm = (params.get('algorithm') ?? 'hs2019').toLowerCase();
  if (algorithm !== 'rsa-sha256' && algorithm !== 'hs2019' && algorithm !== 'ed25519')
    return refuse(`the signature algorithm ${algorithm} is not supported (rsa-sha256, hs2019, ed25519)`);
  const names = (params.get('headers') ?? 'date').toLowerCase().trim().split(/\s+/);
  const required = ['(request-target)', 'host', 'date', ...(request.body.length > 0 ? ['digest'] : [])];
  const missing = required.filter((name) => !names.includes(name));
  if (missing.length > 0) return refuse(`the signature must cover ${missing.join(', ')}`);

  const date = parseHttpDate(request.headers.date ?? '');
  if (!date) return refuse('Date is missing or not an RFC 9110 date', 'date');
  const late = outsideWindow(date, now);
  if (late) return refuse(late, 'date');
  if (names.includes('digest') || request.body.length > 0) {
    const digest = checkDigest(request.headers.digest, request.body);
    if (digest) return refuse(digest, 'digest');
  }

  // (request-target) as received; implementations disagree on the query, so without it too.
  const targets = [request.target];
  const withoutQuery = request.target.split('?')[0]!;
  if (withoutQuery !== request.target) targets.push(withoutQuery);
  const strings: Buffer[] = [];
  for (const target of targets) {
    const lines: string[] = [];
    for (const name of names) {
      if (name === '(request-target)')
        lines.push(`(request-target): ${request.method.toLowerCase()} ${target}`);
      else {
        const value = request.headers[name];
        if (value === undefined) return refuse(`the signed header ${name} is missing`);
        lines.push(`${name}: ${value}`);
      }
    }
    strings.push(Buffer.from(lines.join('\n'), 'utf8'));
  }
  return {
    ok: true,
    claim: {
      keyId,
      signedData: strings,
      signature: Buffer.from(signature, 'base64'),
      keyType: algorithm === 'hs2019' ? null : algorithm === 'ed25519' ? 'ed25519' : 'rsa',
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// RFC 9421

export const isInnerList = (value: Item | InnerList): value is InnerList => Array.isArray(value[0]);

export function dictionary(value: string | undefined): Dictionary | null {
  if (value === undefined) return null;
  try {
    return parseDictionary(value);
  } catch {
    return null;
  }
}

/** The value of one covered component, or null when it cannot be produced. */
function componentValue(name: string, request: ReceivedRequest): string | null {
  const [path, query] = splitTarget(request.target);
  const authority = request.headers.host?.toLowerCase();
  switch (name) {
    case '@method':
      return request.method.toUpperCase();
    case '@authority':
      return authority ?? null;
    case '@scheme':
      return request.scheme;
    case '@target-uri':
      return authority === undefined ? null : `${request.scheme}://${authority}${request.target}`;
    case '@request-target':
      return request.target;
    case '@path':
      return path;
    case '@query':
      return `?${query}`;
    default:
      return name.startsWith('@') ? null : (request.headers[name] ?? null);
  }
}

function splitTarget(target: string): [string, string] {
  const at = target.indexOf('?');
  return at === -1 ? [target, ''] : [target.slice(0, at), target.slice(at + 1)];
}

/** `Content-Digest` (RFC 9530): a dictionary whose sha-256 or sha-512 byte sequence must be the body's. */
function checkContentDigest(header: string | undefined, body: Buffer): string | null {
  const digests = dictionary(header);
  if (!digests) return 'a request with a body must carry a valid Content-Digest';
  for (const algorithm of ['sha-256', 'sha-512']) {
    const member = digests.get(algorithm);
    if (!member || isInnerList(member) || !(member[0] instanceof ArrayBuffer)) continue;
    const expected = createHash(algorithm.replace('-', '')).update(body).digest();
    return Buffer.from(member[0]).equals(expected) ? null : 'Content-Digest does not match the body';
  }
  return 'Content-Digest has no sha-256 or sha-512 value';
}

const numberParam = (params: Map<string, BareItem>, name: string): number | null => {
  const value = params.get(name);
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
};

function readRfc9421(request: ReceivedRequest, now: Date): ClaimResult {
  const inputs = dictionary(request.headers['signature-input']);
  const signatures = dictionary(request.headers.signature);
  if (!inputs || !signatures) return refuse('Signature-Input or Signature cannot be parsed');
  // The first signature that has both parts and names a key is the one checked.
  for (const [label, input] of inputs) {
    const signatureMember = signatures.get(label);
    if (!isInnerList(input) || !signatureMember || isInnerList(signatureMember)) continue;
    const [components, params] = input;
    const keyId = params.get('keyid');
    const signature = signatureMember[0];
    if (typeof keyId !== 'string' || !(signature instanceof ArrayBuffer)) continue;

    const alg = params.get('alg');
    if (alg !== undefined && alg !== 'rsa-v1_5-sha256' && alg !== 'ed25519')
      return refuse(`the signature algorithm ${String(alg)} is not supported (rsa-v1_5-sha256, ed25519)`);
    const created = numberParam(params, 'created');
    if (created === null) return refuse('the signature needs a created time');
    const late = outsideWindow(new Date(created * 1000), now);
    if (late) return refuse(late, 'date');
    const expires = numberParam(params, 'expires');
    if (expires !== null && expires * 1000 < now.getTime())
      return refuse('the signature has expired', 'date');

    const names: string[] = [];
    for (const [item, itemParams] of components) {
      if (typeof item !== 'string' || itemParams.size > 0)
        return refuse('only plain component names can be verified (no parameters)');
      names.push(item);
    }
    const coversTarget =
      names.includes('@target-uri') ||
      (names.includes('@authority') && (names.includes('@path') || names.includes('@request-target')));
    if (!names.includes('@method') || !coversTarget)
      return refuse('the signature must cover @method and @target-uri');
    if (request.body.length > 0) {
      if (!names.includes('content-digest')) return refuse('the signature must cover content-digest');
      const digest = checkContentDigest(request.headers['content-digest'], request.body);
      if (digest) return refuse(digest, 'digest');
    }

    const lines: string[] = [];
    for (const name of names) {
      const value = componentValue(name, request);
      if (value === null) return refuse(`the signed component ${name} is missing`);
      lines.push(`"${name}": ${value}`);
    }
    lines.push(`"@signature-params": ${serializeInnerList(input)}`);
    return {
      ok: true,
      claim: {
        keyId,
        signedData: [Buffer.from(lines.join('\n'), 'utf8')],
        signature: Buffer.from(signature),
        keyType: alg === undefined ? null : alg === 'ed25519' ? 'ed25519' : 'rsa',
      },
    };
  }
  return refuse('no signature in Signature-Input has its Signature and a keyid');
}
