// What the service says of itself and its accounts to other servers and to operators: the home page's JSON, the
// webfinger JRDs (API.md §4), NodeInfo, and the health answers. Each is typed by the schema /openapi.json publishes.
import type { Urls } from '../../../../domain/activity-streams.js';
import type { Statistics } from '../../../../application/use-cases/operations/get-statistics.js';
import type { Jrd, NodeInfo, NodeInfoLinks, ServiceResponse } from '../service-schemas.js';
import type { HealthResponse } from '../schemas.js';
import type { Presented } from './presented.js';

/** GET / as JSON: the service, and what it holds. */
export const serviceJson = (
  version: string,
  publicUrl: string,
  stats: Statistics,
): Presented<typeof ServiceResponse> => ({
  name: 'l2',
  version,
  l2_server: publicUrl,
  stats: { users: stats.users, assets: stats.assets, activities: stats.activities },
});

export type JrdJson = Presented<typeof Jrd>;

/** The NodeInfo schema both NodeInfo documents name. */
export const NODEINFO_21 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

/** OpenID Connect Discovery §2: the link that names the OpenID Provider an account signs in at. */
export const OPENID_ISSUER_REL = 'http://openid.net/specs/connect/1.0/issuer';

/**
 * A user's JRD: the acct: subject, the actor as alias, self and profile-page links, and the OpenID issuer (API.md
 * §2.5). Every link is always listed: a `rel=` filter (RFC 7033 §4.3 lets a server ignore it) keeps each it names.
 */
export function userJrd(username: string, domain: string, urls: Urls): JrdJson {
  const actor = urls.actor(username);
  return {
    subject: `acct:${username}@${domain}`,
    aliases: [actor],
    links: [
      { rel: 'self', type: 'application/activity+json', href: actor },
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: actor },
      { rel: OPENID_ISSUER_REL, href: urls.base },
    ],
  };
}

/** The service actor's JRD (`acct:<host>@<domain>`, as Mastodon names its own). */
export const instanceJrd = (acct: string, urls: Urls): JrdJson => ({
  subject: acct,
  aliases: [urls.instanceActor()],
  links: [{ rel: 'self', type: 'application/activity+json', href: urls.instanceActor() }],
});

/** GET /.well-known/nodeinfo: where the NodeInfo document is. */
export const nodeInfoLinksJson = (publicUrl: string): Presented<typeof NodeInfoLinks> => ({
  links: [{ rel: NODEINFO_21, href: `${publicUrl}/nodeinfo/2.1` }],
});

/** GET /nodeinfo/2.1: the software, and the counts of users and activities. */
export const nodeInfoJson = (
  version: string,
  stats: { readonly users: number; readonly activities: number },
): Presented<typeof NodeInfo> => ({
  version: '2.1',
  software: { name: 'l2', version },
  protocols: ['activitypub'],
  services: { inbound: [], outbound: [] },
  openRegistrations: true,
  usage: { users: { total: stats.users }, localPosts: stats.activities },
  metadata: {},
});

/** /healthz and /readyz: the process runs, the service is ready. */
export const healthJson = (status: 'ok' | 'ready'): Presented<typeof HealthResponse> => ({ status });
