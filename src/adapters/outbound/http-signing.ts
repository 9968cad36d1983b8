// Signing requests as the fediverse expects them: draft-cavage-12, what every peer accepts. Reading the signatures of
// incoming requests is adapters/signatures.
import { createHash, sign as signAsync, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

/** RSA signing on libuv's thread pool (the callback form of crypto.sign), so deliveries use every core. */
const signOffThread = promisify(signAsync) as (
  algorithm: string,
  data: Buffer,
  key: KeyObject,
) => Promise<Buffer>;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** The `Digest` header value of a body (RFC 3230, SHA-256). */
export const digestOf = (body: string): string => `SHA-256=${sha256(body).toString('base64')}`;

export interface SigningKeyObject {
  readonly keyId: string;
  readonly privateKey: KeyObject;
}

/**
 * The headers that sign a request the way Mastodon does: `(request-target) host date digest content-type` for a
 * POST (Digest over the exact body), `(request-target) host date accept` for a GET.
 */
export async function signedHeaders(input: {
  method: 'GET' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  /** The body's `Digest` value when the caller already has it (the same body sent to many inboxes). */
  digest?: string;
  key: SigningKeyObject;
  now: Date;
}): Promise<Record<string, string>> {
  const url = new URL(input.url);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(input.headers).map(([name, value]) => [name.toLowerCase(), value])),
    host: url.host,
    date: input.now.toUTCString(),
  };
  if (input.body !== undefined) headers.digest = input.digest ?? digestOf(input.body);
  const names = ['(request-target)', 'host', 'date', ...(input.body !== undefined ? ['digest'] : [])];
  for (const optional of ['content-type', 'accept'])
    if (headers[optional] !== undefined) names.push(optional);
  const signingString = names
    .map((name) =>
      name === '(request-target)'
        ? `(request-target): ${input.method.toLowerCase()} ${url.pathname}${url.search}`
        : `${name}: ${headers[name]}`,
    )
    .join('\n');
  const signature = await signOffThread('sha256', Buffer.from(signingString, 'utf8'), input.key.privateKey);
  headers.signature =
    `keyId="${input.key.keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",` +
    `signature="${signature.toString('base64')}"`;
  return headers;
}
