import type { Registry } from 'prom-client';
import type { HttpDependencies } from '../dependencies.js';
import { buildOpenApiDocument } from '../openapi.js';
import type { RouteTable } from '../route-table.js';
import { accountRoutes } from './account.routes.js';
import { moveRoutes } from './move.routes.js';
import { activityPubRoutes } from './activitypub.routes.js';
import { assetRoutes } from './assets.routes.js';
import { authRoutes } from './auth.routes.js';
import { blocksRoutes } from './blocks.routes.js';
import { discoveryRoutes } from './discovery.routes.js';
import { inboxRoutes } from './inbox.routes.js';
import { introspectionRoutes } from './introspection.routes.js';
import { oauthMetadataRoutes } from './oauth-metadata.routes.js';
import { userInfoRoutes } from './userinfo.routes.js';
import { oauthRoutes } from './oauth.routes.js';
import { opsRoutes } from './ops.routes.js';
import { pagesRoutes } from './pages.routes.js';
import { followRequestRoutes } from './follow-requests.routes.js';
import { profileRoutes } from './profile.routes.js';
import { registryRoutes } from './registry.routes.js';
import { renderersRoutes } from './renderers.routes.js';
import { revocationRoutes } from './revocation.routes.js';
import { rpLogoutRoutes } from './rp-logout.routes.js';
import { transparencyRoutes } from './transparency.routes.js';
import { securityRoutes } from './security.routes.js';
import { signInRoutes } from './sign-in.routes.js';

/** Every route of the service, declared on `routes` in the order they match; /openapi.json documents them. */
export function serviceRoutes(routes: RouteTable, deps: HttpDependencies, metrics: Registry): RouteTable {
  let openApi: object | null = null;
  opsRoutes(routes, deps, {
    openApiDocument: () =>
      (openApi ??= buildOpenApiDocument(routes.documented(), deps.settings.publicUrl, deps.settings.version)),
    metrics,
  });
  authRoutes(routes, deps);
  signInRoutes(routes, deps);
  accountRoutes(routes, deps);
  moveRoutes(routes, deps);
  securityRoutes(routes, deps);
  renderersRoutes(routes, deps);
  oauthMetadataRoutes(routes, deps);
  oauthRoutes(routes, deps);
  introspectionRoutes(routes, deps);
  userInfoRoutes(routes, deps);
  revocationRoutes(routes, deps);
  rpLogoutRoutes(routes, deps);
  pagesRoutes(routes, deps);
  assetRoutes(routes, deps);
  registryRoutes(routes, deps);
  transparencyRoutes(routes, deps);
  activityPubRoutes(routes, deps);
  profileRoutes(routes, deps);
  followRequestRoutes(routes, deps);
  blocksRoutes(routes, deps);
  inboxRoutes(routes, deps);
  discoveryRoutes(routes, deps);
  return routes;
}
