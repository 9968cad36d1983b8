// What a request to the token, introspection or revocation endpoint says about its client (API.md §2.5), read the
// same way by the Koa routes and the introspection hot path; the application decides what it is worth.
import { decodeJwt } from 'jose';
import type { ClientCredentials } from '../../../domain/client-authentication.js';

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before they are base64-encoded. */
const formDecoded = (text: string): string => decodeURIComponent(text.replace(/\+/g, ' '));

function basicOf(authorization: string | undefined): ClientCredentials['basic'] | 'malformed' {
  if (authorization === undefined || !/^basic\s/i.test(authorization)) return null;
  const encoded = authorization.slice(6).trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return 'malformed';
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return {
      username: formDecoded(decoded.slice(0, colon)),
      password: formDecoded(decoded.slice(colon + 1)),
    };
  } catch {
    return 'malformed';
  }
}

const claimOf = (claims: Record<string, unknown> | null, name: string): string | null =>
  typeof claims?.[name] === 'string' ? (claims[name] as string) : null;

/**
 * The client credentials of a request body (form or JSON, already parsed) and its `Authorization` header. A field
 * given twice (an array) or a Basic header that cannot be decoded makes the credentials `malformed`.
 */
export function clientCredentialsOf(
  fields: Readonly<Record<string, unknown>>,
  authorization: string | undefined,
): ClientCredentials {
  const text = (name: string): string | null | 'repeated' => {
    const value = fields[name];
    if (value === undefined || value === null) return null;
    return typeof value === 'string' ? value : 'repeated';
  };
  const bodyClientId = text('client_id');
  const type = text('client_assertion_type');
  const jwt = text('client_assertion');
  const basic = basicOf(authorization);
  const repeated = [bodyClientId, type, jwt].includes('repeated');
  let claims: Record<string, unknown> | null = null;
  if (typeof jwt === 'string' && jwt !== 'repeated') {
    try {
      claims = decodeJwt(jwt) as Record<string, unknown>;
    } catch {
      claims = null;
    }
  }
  return {
    bodyClientId: bodyClientId === 'repeated' ? null : bodyClientId,
    basic: basic === 'malformed' ? null : basic,
    assertion:
      type === null && jwt === null
        ? null
        : {
            type: type === 'repeated' ? null : type,
            jwt: jwt === 'repeated' ? null : jwt,
            issuer: claimOf(claims, 'iss'),
            subject: claimOf(claims, 'sub'),
          },
    secret: fields.client_secret !== undefined,
    malformed: repeated
      ? 'A client parameter is given more than once.'
      : basic === 'malformed'
        ? 'The Basic credentials cannot be read.'
        : null,
  };
}
