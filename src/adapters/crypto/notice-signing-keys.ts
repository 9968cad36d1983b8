import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { NoticeSigner } from '../../application/ports/notice-signer.js';
import { LOGOUT_TOKEN_TYPE, type LogoutTokenClaims } from '../../domain/logout-token.js';

/** A P-256 public key as a JWK, as `/.well-known/jwks.json` publishes it (API.md §2.1). */
export interface PublicNoticeJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly kid: string;
  readonly use: 'sig';
  readonly alg: 'ES256';
}

interface NoticeKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly jwk: PublicNoticeJwk;
}

/**
 * The RFC 7638 thumbprint of a P-256 public key: SHA-256 over its required members in lexicographic order, base64url.
 * Every instance holding the same key file computes the same `kid`, and an L1 server can recompute it.
 */
function thumbprint(jwk: { crv: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** Reads a PKCS#8 PEM P-256 private key; throws a plain Error saying what is wrong with it. */
function keyOf(pem: string): NoticeKey {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('the notice signing key must be an EC P-256 private key (PKCS#8 PEM)');
  const { crv, x, y } = createPublicKey(privateKey).export({ format: 'jwk' }) as {
    crv: string;
    x: string;
    y: string;
  };
  const kid = thumbprint({ crv, x, y });
  return { kid, privateKey, jwk: { kty: 'EC', crv: 'P-256', x, y, kid, use: 'sig', alg: 'ES256' } };
}

/** The `kid` of a notice signing key (its RFC 7638 thumbprint), for the operator's rotation steps. */
export const noticeKeyIdOf = (pem: string): string => keyOf(pem).kid;

/**
 * The notice signing keys (API.md §2.1, §2.4): logout tokens are signed with the current key (`notice_signing_key`),
 * ES256 with its `kid`; the JWKS publishes it and the previous one (`notice_signing_key.previous`), so that during
 * a rotation L1 servers already know the key the next notice will name. Never the token secret.
 */
export class NoticeSigningKeys implements NoticeSigner {
  private readonly current: NoticeKey;
  private readonly previous: NoticeKey | null;

  constructor(currentPem: string, previousPem: string | null = null) {
    this.current = keyOf(currentPem);
    this.previous = previousPem === null ? null : keyOf(previousPem);
  }

  /** The current key's id. */
  get kid(): string {
    return this.current.kid;
  }

  sign(claims: LogoutTokenClaims): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: this.current.kid, typ: LOGOUT_TOKEN_TYPE })
      .sign(this.current.privateKey);
  }

  /** The JWK Set of `/.well-known/jwks.json`: the current key, then the previous one (a key twice is listed once). */
  jwks(): { readonly keys: readonly PublicNoticeJwk[] } {
    const keys = [this.current, this.previous].filter((key): key is NoticeKey => key !== null);
    return { keys: [...new Map(keys.map((key) => [key.kid, key.jwk])).values()] };
  }
}
