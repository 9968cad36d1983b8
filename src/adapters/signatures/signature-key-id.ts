import type { SignedRequest } from '../../application/ports/signature-verifier.js';
import { dictionary, isInnerList, parseCavageParams } from './http-signature-reading.js';

/**
 * The key id a request's signature names, read from its headers alone (nothing verified, nothing fetched): the
 * `keyId` of a draft-cavage `Signature` (or `Authorization: Signature`), or the `keyid` of the first RFC 9421
 * signature that has one — the same one `readSignature` checks. Null when the request names none.
 */
export function keyIdOf(request: Pick<SignedRequest, 'headers'>): string | null {
  const { headers } = request;
  if (headers['signature-input'] !== undefined) {
    const inputs = dictionary(headers['signature-input']);
    for (const [, input] of inputs ?? []) {
      if (!isInnerList(input)) continue;
      const keyId = input[1].get('keyid');
      if (typeof keyId === 'string') return keyId;
    }
    return null;
  }
  const cavage =
    headers.signature ??
    (headers.authorization?.startsWith('Signature ') ? headers.authorization.slice(10) : undefined);
  if (cavage === undefined) return null;
  return parseCavageParams(cavage)?.get('keyid') ?? null;
}
