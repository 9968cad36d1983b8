import { canParseUrl } from '../../../domain/url-parse.js';
// Webfinger's request (API.md §4): which account a `resource` names; and host-meta, which points peers at it. The
// JRD answers are presenters/service-presenters.ts.

/**
 * Which username a webfinger `resource` names on this server: `acct:<u>@<domain>`, `acct:@<u>@<domain>`, or the
 * actor URL itself. `'malformed'` for something that is no resource at all (400); null for another domain or a
 * URL that is not one of our actors (404).
 */
export function usernameFromResource(
  resource: string,
  input: { domain: string; actorUrlPrefix: string },
): string | null | 'malformed' {
  const acct = /^acct:@?([^@\s]+)@([^@\s]+)$/i.exec(resource);
  if (acct) {
    const [, user = '', domain = ''] = acct;
    return domain.toLowerCase() === input.domain.toLowerCase() ? user.toLowerCase() : null;
  }
  if (/^acct:/i.test(resource)) return 'malformed';
  if (!/^https?:\/\//i.test(resource) || !canParseUrl(resource)) return 'malformed';
  const prefix = `${input.actorUrlPrefix}/users/`;
  if (!resource.startsWith(prefix)) return null;
  const rest = resource.slice(prefix.length);
  if (!/^[^/?#]+$/.test(rest)) return null;
  try {
    return decodeURIComponent(rest).toLowerCase();
  } catch {
    return null; // broken percent-encoding names no user
  }
}

export function hostMetaXml(publicUrl: string): string {
  const template = `${publicUrl}/.well-known/webfinger?resource={uri}`
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n' +
    `  <Link rel="lrdd" type="application/jrd+json" template="${template}"/>\n` +
    '</XRD>\n'
  );
}
