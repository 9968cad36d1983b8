// What an OAuth or OpenID Connect library reads first (API.md §2.1, §2.5): the RFC 8414 metadata, the same document
// as OpenID Connect Discovery, and the keys that sign notices and ID tokens.
import type { Context } from 'koa';
import type { HttpDependencies } from '../dependencies.js';
import * as oauth from '../../shared/oauth-schemas.js';
import {
  authorizationServerMetadata,
  JWKS_PATH,
  signingKeysJson,
} from '../../shared/presenters/oauth-presenters.js';
import { json } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';

export const METADATA_PATH = '/.well-known/oauth-authorization-server';
/** OpenID Connect Discovery 1.0 §4: `issuer` + this path (a path prefix of PUBLIC_URL is the proxy's to strip). */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
/** Public documents, the same for everyone: any origin may read them, and caches may keep them a while. */
function publicDocument(ctx: Context, body: unknown, maxAgeSeconds: number): void {
  ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.body = body;
}

export function oauthMetadataRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { publicUrl } = deps.settings;
  const metadata = authorizationServerMetadata(publicUrl);
  const doc = {
    summary:
      'RFC 8414 authorization server metadata: where "Sign in with L2", introspection and the keys are',
    responses: { 200: json(oauth.AuthorizationServerMetadata, 'The metadata; issuer is PUBLIC_URL') },
    refusals: [],
  };
  routes.get(METADATA_PATH, doc, (ctx) => publicDocument(ctx, metadata, 3600));
  // RFC 8414 §3: an issuer with a path has its metadata at the well-known path followed by that path.
  const issuerPath = deps.urls.address.path;
  if (issuerPath !== '')
    routes.get(`${METADATA_PATH}${issuerPath}`, doc, (ctx) => publicDocument(ctx, metadata, 3600));
  routes.get(
    OPENID_CONFIGURATION_PATH,
    {
      ...doc,
      summary: 'OpenID Connect Discovery 1.0: the same metadata as /.well-known/oauth-authorization-server',
      responses: { 200: json(oauth.AuthorizationServerMetadata, 'The metadata; issuer is PUBLIC_URL') },
    },
    (ctx) => publicDocument(ctx, metadata, 3600),
  );

  routes.get(
    JWKS_PATH,
    {
      summary:
        'The public keys that sign revocation notices (ES256) and ID tokens (RS256): the current ones, and the ' +
        'previous during a rotation',
      description:
        'Never the token secret. A logout token or an ID token names its key by `kid` (the RFC 7638 thumbprint).',
      responses: { 200: json(oauth.Jwks, 'A JWK Set') },
      refusals: [],
    },
    // Five minutes: a rotation publishes the next key as `.previous` well before it signs anything.
    (ctx) => publicDocument(ctx, signingKeysJson(deps.signingJwks()), 300),
  );
}
