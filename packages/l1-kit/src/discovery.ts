import { L2UnavailableError } from './errors.js';
import { isObject } from './http.js';
import type { L2Client } from './l2-client.js';
import type { AuthorizationServerMetadata } from './types.js';
import { httpUrl, sameServerUrl } from './url.js';

const METADATA_TTL_MS = 60 * 60_000;

/**
 * L2's RFC 8414 metadata (`/.well-known/oauth-authorization-server`): fetched when first needed, kept an hour,
 * one request at a time. Its `issuer` must be the configured L2 — what makes every endpoint and key it names L2's.
 */
export class Discovery {
  #metadata: { value: AuthorizationServerMetadata; until: number } | undefined;
  #flight: Promise<AuthorizationServerMetadata> | undefined;

  constructor(
    private readonly l2: L2Client,
    /** L2's URL, normalised: the issuer the metadata must name. */
    private readonly issuer: string,
  ) {}

  /** The metadata, or an {@link L2UnavailableError} when L2 is not the configured one or cannot be reached. */
  async metadata(): Promise<AuthorizationServerMetadata> {
    const cached = this.#metadata;
    if (cached && cached.until > this.l2.now()) return cached.value;
    this.#flight ??= this.#discover().finally(() => (this.#flight = undefined));
    return this.#flight;
  }

  async #discover(): Promise<AuthorizationServerMetadata> {
    const issuer = new URL(this.issuer);
    const path = issuer.pathname === '/' ? '' : issuer.pathname;
    const answer = await this.l2.request(`${issuer.origin}/.well-known/oauth-authorization-server${path}`, {
      headers: { accept: 'application/json' },
    });
    if (answer.status !== 200) throw this.l2.unavailable(answer);
    const body = answer.json;
    if (!isObject(body)) throw new L2UnavailableError('malformed', 'metadata that is not a JSON object');
    if (!sameServerUrl(body.issuer, this.issuer)) {
      throw new L2UnavailableError(
        'issuer_mismatch',
        `metadata issuer ${JSON.stringify(body.issuer)} is not ${this.issuer}`,
      );
    }
    for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
      if (!httpUrl(body[field]))
        throw new L2UnavailableError('malformed', `metadata without a valid ${field}`);
    }
    const methods = body.code_challenge_methods_supported;
    if (Array.isArray(methods) && !methods.includes('S256')) {
      throw new L2UnavailableError(
        'malformed',
        'metadata without S256 among code_challenge_methods_supported',
      );
    }
    const value = body as AuthorizationServerMetadata;
    this.#metadata = { value, until: this.l2.now() + METADATA_TTL_MS };
    return value;
  }
}
