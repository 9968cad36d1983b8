// What an OAuth library reads first (API.md §2.1): the RFC 8414 metadata and the keys that sign notices.
import type { Context } from 'koa';
import type { HttpDependencies } from '../dependencies.js';
import * as oauth from '../../shared/oauth-schemas.js';
import {
  authorizationServerMetadata,
  JWKS_PATH,
  noticeKeysJson,
} from '../../shared/presenters/oauth-presenters.js';
import { json } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';

export const METADATA_PATH = '/.well-known/oauth-authorization-server';
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
    JWKS_PATH,
    {
      summary:
        'The public keys that sign revocation notices (ES256): the current one, and the previous during a rotation',
      description: 'Never the token secret. A logout token names its key by `kid` (the RFC 7638 thumbprint).',
      responses: { 200: json(oauth.Jwks, 'A JWK Set') },
      refusals: [],
    },
    // Five minutes: a rotation publishes the next key as `.previous` well before it signs anything.
    (ctx) => publicDocument(ctx, noticeKeysJson(deps.noticeJwks()), 300),
  );
}
