/**
 * Shared vocabulary of the peer-rules oracle: the result shapes every platform module returns, and the
 * small JSON readers that mirror how the platforms read ActivityStreams JSON (a value or a list, a URL or an
 * object with an `id`, Ruby's `present?`). Nothing here is a platform rule; the rules live in the platform
 * modules, each citing the source file it was read from. See README.md.
 */

export type Json = Record<string, unknown>;

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** Who can see a post, in one vocabulary for all platforms (each module maps its own terms onto it). */
export type Audience = 'public' | 'unlisted' | 'followers' | 'direct';

/** One media item a platform keeps from `attachment`. */
export interface Picture {
  readonly url: string;
  /** The alt text the platform stores (after its own cutting), or null. */
  readonly alt: string | null;
  /** The media type as the post declared it (null when it did not). */
  readonly mediaType: string | null;
  /** How the platform will show it: as media, or as an "unknown file" link (Mastodon's unknown type). */
  readonly kind: 'image' | 'video' | 'audio' | 'unknown';
}

/** What a follower sees of a post, as the platform stores it. */
export interface PostShown {
  /** The status text (HTML as the platform stores it, before its own sanitising; see README). */
  readonly text: string;
  /** The link the platform gives for "open the original". */
  readonly permalink: string;
  /** The object id the platform keys the post by. */
  readonly uri: string;
  /** The first media item shown as media (image, video or audio), or null: "a picture post" needs one. */
  readonly picture: Picture | null;
  /** Every media item kept, in order. */
  readonly pictures: readonly Picture[];
  readonly sensitive: boolean;
  /** The content warning text, or null. */
  readonly contentWarning: string | null;
  /** Hashtags the platform links the post to, lower-cased, without `#`. */
  readonly hashtags: readonly string[];
  readonly audience: Audience;
}

/**
 * `shown`: a follower of the author sees the post (it is stored and reaches their home timeline).
 * `reasons`: why not (empty when shown). `notes`: what the platform dropped or changed on the way.
 */
export interface PostVerdict {
  readonly shown: boolean;
  readonly reasons: readonly string[];
  readonly notes: readonly string[];
  readonly post?: PostShown;
}

export interface ProfileImage {
  readonly url: string;
  readonly alt: string | null;
}

export interface ProfileField {
  readonly name: string;
  readonly value: string;
  /** Mastodon only: the value is a link it would try to verify (rel=me check on the linked page). */
  readonly verifiable?: boolean;
}

export interface ProfileShown {
  /** The display name as stored ('' when the actor has none; platforms then show the username). */
  readonly displayName: string;
  readonly bioHtml: string;
  readonly avatar: ProfileImage | null;
  readonly header: ProfileImage | null;
  readonly fields: readonly ProfileField[];
  /** The `featured` collection the platform will read pinned posts from, or null. */
  readonly pinnedCollection: string | null;
  /** null: the platform does not read the flag. */
  readonly indexable: boolean | null;
  readonly discoverable: boolean | null;
  readonly locked: boolean | null;
  /** The profile link the platform shows. */
  readonly url: string | null;
}

/** `accepted`: the platform stores the actor (and shows `profile`). */
export interface ProfileVerdict {
  readonly accepted: boolean;
  readonly reasons: readonly string[];
  readonly notes: readonly string[];
  readonly profile?: ProfileShown;
}

/** The outcome of an `Update` of a post the platform already shows. */
export interface UpdateVerdict {
  /** edited: shown as an edit; unchanged: accepted, nothing users see changed; ignored: dropped. */
  readonly outcome: 'edited' | 'unchanged' | 'ignored' | 'created';
  readonly reasons: readonly string[];
  readonly notes: readonly string[];
  readonly post?: PostShown;
}

export interface DeleteVerdict {
  readonly removed: boolean;
  readonly reasons: readonly string[];
}

/** A refusal with its reasons. */
export function refused(reasons: string[], notes: string[] = []): PostVerdict {
  return { shown: false, reasons, notes };
}

/** True when the verdict is a post a follower sees with media shown as media. */
export function isPicturePost(verdict: PostVerdict): boolean {
  return verdict.shown && verdict.post !== undefined && verdict.post.picture !== null;
}

export function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ActivityStreams "one or many": undefined/null → [], a list as is, anything else → [it]. */
export function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The first of a list, or the value itself. */
export function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/** A string as is, or the string `id` of an object; otherwise undefined. */
export function valueOrId(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isJson(value) && typeof value.id === 'string') return value.id;
  return undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Ruby's `present?`: not nil, not false, not a blank string, not an empty list or hash. */
export function present(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (isJson(value)) return Object.keys(value).length > 0;
  return true;
}

/** Ruby truthiness (nil and false are false, everything else is true). */
export function rubyTruthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

export function parseUrl(value: unknown): URL | null {
  if (typeof value !== 'string') return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** An absolute http: or https: URL with a host. */
export function isHttpUrl(value: unknown): value is string {
  const url = parseUrl(value);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export function isHttpsUrl(value: unknown): value is string {
  const url = parseUrl(value);
  return url !== null && url.protocol === 'https:' && url.hostname !== '';
}

/** The lower-cased host name (no port) of a URL, or null. */
export function hostOf(value: unknown): string | null {
  const url = parseUrl(value);
  return url && url.hostname !== '' ? url.hostname.toLowerCase() : null;
}

/** The type names of an object (`type` may be a string or a list). */
export function typesOf(object: unknown): string[] {
  if (!isJson(object)) return [];
  return asArray(object.type).filter((t): t is string => typeof t === 'string');
}

export function hasAnyType(object: unknown, names: readonly string[]): boolean {
  return typesOf(object).some((t) => names.includes(t));
}

/** The `@context` names the ActivityStreams context by its exact URL (as a string or in a list). */
export function hasAsContext(document: Json): boolean {
  return asArray(document['@context']).some((entry) => entry === AS_CONTEXT);
}

/** Media kind by the declared media type's top-level type. */
export function kindOf(mediaType: string | null): Picture['kind'] {
  const top = mediaType?.split('/')[0];
  return top === 'image' ? 'image' : top === 'video' ? 'video' : top === 'audio' ? 'audio' : 'unknown';
}

export function firstShownMedia(pictures: readonly Picture[]): Picture | null {
  return pictures.find((p) => p.kind !== 'unknown') ?? null;
}
