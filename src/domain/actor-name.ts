import { err, ok, type Result } from './result.js';
import { canParseUrl } from './url-parse.js';

/**
 * An actor as a person names one (API.md §4.3 "Resolving an actor someone names"): a block, an alias
 * (`also_known_as`), a move target. Only its form is judged here; whether it resolves to an actor is the resolver's.
 */
export type ActorName =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'handle'; readonly user: string; readonly host: string };

/** The longest name taken: an actor URL is rarely a tenth of it, and nothing longer is fetched. */
export const ACTOR_NAME_MAX_CHARACTERS = 2048;

// The user part of an `acct:` handle (RFC 7565 unreserved characters): Mastodon, GoToSocial and Misskey usernames
// all fit, and nothing in it needs escaping in the WebFinger query.
const HANDLE = /^@?([A-Za-z0-9._~-]+)@([^@/?#\s\\]+)$/;

/**
 * `https://host/users/bob` (an `http(s)` URL, no user info, the fragment dropped) or `@bob@host` / `bob@host` (the
 * host canonical: lower-case, an IDN as punycode, a port kept — it is where WebFinger is asked). Blank or anything
 * else: why not, one sentence.
 */
export function parseActorName(input: string): Result<ActorName, string> {
  const typed = input.trim();
  if (typed === '') return err('Name an actor: its URL or @user@host.');
  if (typed.length > ACTOR_NAME_MAX_CHARACTERS)
    return err(`At most ${ACTOR_NAME_MAX_CHARACTERS} characters.`);
  if (/^https?:\/\//i.test(typed)) return actorUrl(typed);
  const handle = HANDLE.exec(typed);
  if (handle === null) return err('Write an actor URL (https://…) or a handle (@user@host).');
  const host = canonicalHost(handle[2]!);
  if (host === null) return err(`'${handle[2]}' is not a host name.`);
  return ok({ kind: 'handle', user: handle[1]!, host });
}

function actorUrl(typed: string): Result<ActorName, string> {
  if (!canParseUrl(typed)) return err('That URL cannot be read.');
  const url = new URL(typed);
  if (url.hostname === '') return err('That URL has no host.');
  if (url.username !== '' || url.password !== '') return err('An actor URL has no user name or password.');
  url.hash = '';
  return ok({ kind: 'url', url: url.href });
}

/** The host (and port) of a handle as a URL would spell it, or null when it is none. */
function canonicalHost(host: string): string | null {
  if (!canParseUrl(`https://${host}/`)) return null;
  const url = new URL(`https://${host}/`);
  if (url.username !== '' || url.hostname === '' || url.pathname !== '/') return null;
  return url.host;
}

/** The name as a person reads it back: the URL, or `@user@host`. */
export const actorNameText = (name: ActorName): string =>
  name.kind === 'url' ? name.url : `@${name.user}@${name.host}`;
