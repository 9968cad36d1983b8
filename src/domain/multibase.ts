// Multibase and multihash, as far as a content hash needs them (FEP-ef61's `digestMultibase`).

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 with the Bitcoin alphabet: leading zero bytes become '1's, the rest is the number in base 58. */
export function base58btc(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let digits = '';
  while (value > 0n) {
    digits = BASE58_ALPHABET[Number(value % 58n)]! + digits;
    value /= 58n;
  }
  return '1'.repeat(zeros) + digits;
}

/**
 * A `sha256:<64 hex>` content hash as a multibase multihash: `z` (base58btc) over 0x12 (sha2-256) 0x20 (32 bytes)
 * and the digest — what a peer compares with the SHA-256 of the file it downloads.
 */
export function sha256DigestMultibase(contentHash: string): string {
  const hex = contentHash.replace(/^sha256:/, '');
  const digest = Uint8Array.from(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
  return `z${base58btc(Uint8Array.from([0x12, 0x20, ...digest]))}`;
}
