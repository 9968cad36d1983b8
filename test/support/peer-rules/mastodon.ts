/**
 * Mastodon (4.x, main as stored in mastodon/mastodon): what it does with an incoming Create/Update/Delete of
 * a post, and with an actor document. Every rule names the file it was read from (paths in mastodon/mastodon).
 */
import {
  AS_PUBLIC,
  asArray,
  firstOf,
  firstShownMedia,
  hasAnyType,
  hasAsContext,
  hostOf,
  isHttpUrl,
  isJson,
  present,
  refused,
  rubyTruthy,
  str,
  typesOf,
  valueOrId,
  type Audience,
  type DeleteVerdict,
  type Json,
  type Picture,
  type PostShown,
  type PostVerdict,
  type ProfileField,
  type ProfileImage,
  type ProfileVerdict,
  type UpdateVerdict,
} from './common.js';

/** app/lib/activitypub/activity.rb: SUPPORTED_TYPES and CONVERTED_TYPES. */
export const SUPPORTED_TYPES = ['Note', 'Question'] as const;
export const CONVERTED_TYPES = ['Image', 'Audio', 'Video', 'Article', 'Page', 'Event'] as const;

/** app/models/media_attachment.rb (4.2+): the types it downloads and shows as media. */
export const IMAGE_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/heic',
  'image/heif',
  'image/webp',
  'image/avif',
];
export const VIDEO_MIME_TYPES = ['video/webm', 'video/mp4', 'video/quicktime', 'video/ogg'];
export const AUDIO_MIME_TYPES = [
  'audio/wave',
  'audio/wav',
  'audio/x-wav',
  'audio/x-pn-wave',
  'audio/vnd.wave',
  'audio/ogg',
  'audio/vorbis',
  'audio/mpeg',
  'audio/mp3',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'audio/m4a',
  'audio/x-m4a',
  'audio/mp4',
  'audio/3gpp',
  'video/x-ms-asf',
];

/** MediaAttachment::MAX_DESCRIPTION_LENGTH (media_attachment_parser.rb cuts remote descriptions to it). */
export const MAX_DESCRIPTION_LENGTH = 1500;
/** Status::MEDIA_ATTACHMENTS_LIMIT. */
export const MEDIA_ATTACHMENTS_LIMIT = 4;
/** app/models/account.rb: hard limits for federated content. */
export const DISPLAY_NAME_LENGTH_HARD_LIMIT = 2048;
export const NOTE_LENGTH_HARD_LIMIT = 20 * 1024;
/** app/models/account/field.rb: MAX_CHARACTERS_COMPAT (remote accounts). */
export const FIELD_MAX_CHARACTERS_COMPAT = 2047;

const ACTOR_TYPES = ['Application', 'Group', 'Organization', 'Person', 'Service'];

export interface MastodonOptions {
  /**
   * create.rb `related_to_local_activity?`: someone on the instance follows the author (or the post
   * mentions a local account, or came through a relay). Default true: the oracle asks what a follower sees.
   */
  readonly followedByLocalAccounts?: boolean;
  /** The HTTP-signature key owner; default the activity's actor (an LD-signed relay is not modelled). */
  readonly signer?: string;
  /** The author's `followers` URL as Mastodon stored it from the actor; default `<actor>/followers`. */
  readonly followersCollection?: string;
}

/** json_ld_helper.rb `unsupported_uri_scheme?`. */
function unsupportedUriScheme(uri: unknown): boolean {
  return typeof uri !== 'string' || !(uri.startsWith('http://') || uri.startsWith('https://'));
}

/** json_ld_helper.rb `non_matching_uri_hosts?` (also the old `invalid_origin?`). */
function nonMatchingUriHosts(base: string, comparison: unknown): boolean {
  if (unsupportedUriScheme(comparison)) return true;
  return hostOf(base) !== hostOf(comparison);
}

/** json_ld_helper.rb `url_to_href`: a string, a Link's href, or from a list the one of the preferred type. */
export function urlToHref(value: unknown, preferredType?: string): string | undefined {
  let single: unknown;
  if (Array.isArray(value) && typeof value[0] !== 'string') {
    single = value.find(
      (link) =>
        preferredType === undefined ||
        ((isJson(link) && present(link.mediaType) ? link.mediaType : 'text/html') as unknown) ===
          preferredType,
    );
  } else if (Array.isArray(value)) {
    single = value[0];
  } else {
    single = value;
  }
  if (typeof single === 'string') return single;
  return isJson(single) ? str(single.href) : undefined;
}

/** json_ld_helper.rb `url_to_media_type`: the mediaType of the Link `url_to_href` would pick. */
function urlToMediaType(value: unknown): string | undefined {
  const single = Array.isArray(value) ? value[0] : value;
  return isJson(single) ? str(single.mediaType) : undefined;
}

/** tag_manager.rb `public_collection?`. */
function isPublicCollection(uri: string | undefined): boolean {
  return uri === AS_PUBLIC || uri === 'as:Public' || uri === 'Public';
}

/** A string or the first value of a language map (status_parser.rb `text`, `spoiler_text`, `title`). */
function textOrMap(object: Json, key: string, mapKey: string): string | undefined {
  if (present(object[key]) && typeof object[key] === 'string') return object[key] as string;
  const map = object[mapKey];
  if (isJson(map)) {
    const first = Object.values(map)[0];
    if (typeof first === 'string') return first;
  }
  return undefined;
}

/**
 * Tag::HASHTAG_NAME_RE (app/models/tag.rb) after HashtagNormalizer (NFKC, lower case, invalid characters
 * removed). A name needs at least one letter: `#2024` is not a hashtag. ASCII folding is not modelled.
 */
const W = '\\p{L}\\p{M}\\p{N}\\p{Pc}';
const ALPHA = '\\p{L}\\p{M}';
const SEPARATORS = '_\\u00B7\\u30FB\\u200C';
const HASHTAG_NAME_RE = new RegExp(
  `^(?:(?:[${W}_][${W}${SEPARATORS}]*[${ALPHA}${SEPARATORS}][${W}${SEPARATORS}]*[${W}_])|(?:[${W}_]*[${ALPHA}][${W}_]*))$`,
  'u',
);
const HASHTAG_INVALID_CHARS_RE = new RegExp(`[^\\p{L}\\p{M}\\p{N}${SEPARATORS}]`, 'gu');

export function normalizeHashtag(name: string): string | null {
  const normalized = name.normalize('NFKC').toLowerCase().replace(HASHTAG_INVALID_CHARS_RE, '');
  return HASHTAG_NAME_RE.test(normalized) ? normalized : null;
}

/** Mastodon's `linkify` output, reduced to the link (the real one adds spans and rel attributes). */
function linkify(url: string): string {
  return `<a href="${url}">${url}</a>`;
}

function mediaKind(mediaType: string | null): Picture['kind'] {
  if (mediaType === null) return 'unknown';
  if (IMAGE_MIME_TYPES.includes(mediaType)) return 'image';
  if (VIDEO_MIME_TYPES.includes(mediaType)) return 'video';
  if (AUDIO_MIME_TYPES.includes(mediaType)) return 'audio';
  return 'unknown';
}

/** create.rb `process_attachments` with parser/media_attachment_parser.rb. */
function readAttachments(object: Json, notes: string[]): Picture[] {
  const pictures: Picture[] = [];
  for (const item of asArray(object.attachment)) {
    if (!isJson(item)) {
      notes.push('attachment that is not an object skipped');
      continue;
    }
    const href = urlToHref(item.url);
    if (href === undefined || unsupportedUriScheme(href)) {
      notes.push(`attachment skipped: no http(s) url (${JSON.stringify(item.url)})`);
      continue;
    }
    if (pictures.length >= MEDIA_ATTACHMENTS_LIMIT) {
      notes.push(`attachment ${href} dropped: only ${MEDIA_ATTACHMENTS_LIMIT} are kept`);
      continue;
    }
    const described = present(item.summary) ? item.summary : present(item.name) ? item.name : undefined;
    const alt = typeof described === 'string' ? described.trim().slice(0, MAX_DESCRIPTION_LENGTH) : null;
    if (typeof described === 'string' && described.trim().length > MAX_DESCRIPTION_LENGTH) {
      notes.push(`alt text of ${href} cut to ${MAX_DESCRIPTION_LENGTH} characters`);
    }
    // media_attachment_parser.rb `file_content_type`: mediaType, else the Link's (url_to_media_type).
    const mediaType = str(item.mediaType) ?? urlToMediaType(item.url) ?? null;
    const kind = mediaKind(mediaType);
    if (mediaType === null) {
      notes.push(
        `attachment ${href} has no mediaType: Mastodon downloads it and decides (shown as unknown here)`,
      );
    } else if (kind === 'unknown') {
      notes.push(
        `attachment ${href}: ${mediaType} is not a supported media type; shown as an "unknown" link`,
      );
    }
    pictures.push({ url: href, alt, mediaType, kind });
  }
  return pictures;
}

function readHashtags(object: Json, notes: string[]): string[] {
  const tags: string[] = [];
  for (const tag of asArray(object.tag)) {
    if (!isJson(tag) || !hasAnyType(tag, ['Hashtag'])) continue;
    const name = str(tag.name);
    if (name === undefined || !present(name)) {
      notes.push('Hashtag without a name dropped');
      continue;
    }
    const normalized = normalizeHashtag(name);
    if (normalized === null) {
      notes.push(`Hashtag ${name} dropped: not a valid Mastodon hashtag name (Tag::HASHTAG_NAME_RE)`);
      continue;
    }
    if (!tags.includes(normalized)) tags.push(normalized);
  }
  return tags;
}

/** The status Mastodon builds from an object (create.rb `process_status_params`, parser/status_parser.rb). */
function statusFrom(activity: Json, object: Json, followers: string, notes: string[]): PostShown {
  const uri = str(object.id) ?? '';
  const rawUrl = present(object.url) ? urlToHref(object.url, 'text/html') : undefined;
  const url = rawUrl !== undefined && !unsupportedUriScheme(rawUrl) ? rawUrl : undefined;
  if (present(object.url) && url === undefined)
    notes.push('object url is not an http(s) URL: the id is used');
  const converted = hasAnyType(object, CONVERTED_TYPES) && !hasAnyType(object, SUPPORTED_TYPES);
  const title = textOrMap(object, 'name', 'nameMap');
  const summary = textOrMap(object, 'summary', 'summaryMap');
  let text: string;
  let contentWarning: string | null;
  if (converted) {
    // status_parser.rb `processed_text`: <h2>name</h2>, summary, a link; `content` is not read.
    text = [title ? `<h2>${title}</h2>` : null, summary ?? null, linkify(url ?? uri)]
      .filter((part): part is string => part !== null)
      .join('\n\n');
    contentWarning = null;
    notes.push(
      `${typesOf(object).join(',')} is converted: the text is the name and a link; content is ignored`,
    );
  } else {
    text = textOrMap(object, 'content', 'contentMap') ?? '';
    contentWarning = summary ?? null;
  }
  // status_parser.rb `audience_to`/`audience_cc`: the object's, else the activity's.
  const to = asArray(object.to ?? activity.to).map(valueOrId);
  const cc = asArray(object.cc ?? activity.cc).map(valueOrId);
  const audience: Audience = to.some(isPublicCollection)
    ? 'public'
    : cc.some(isPublicCollection)
      ? 'unlisted'
      : to.includes(followers)
        ? 'followers'
        : 'direct';
  const pictures = readAttachments(object, notes);
  return {
    text,
    permalink: url ?? uri,
    uri,
    picture: firstShownMedia(pictures),
    pictures,
    sensitive: rubyTruthy(object.sensitive),
    contentWarning,
    hashtags: readHashtags(object, notes),
    audience,
  };
}

/** What Mastodon does with an incoming `Create`. */
export function showsPost(activity: Json, options: MastodonOptions = {}): PostVerdict {
  const notes: string[] = [];
  // app/helpers/json_ld_helper.rb `supported_context?` (checked by ProcessCollectionService on every delivery).
  if (!hasAsContext(activity)) return refused(['@context lacks https://www.w3.org/ns/activitystreams']);
  // activity.rb `factory`.
  if (activity.type !== 'Create') return refused([`not a Create (${String(activity.type)})`]);
  const actor = valueOrId(firstOf(activity.actor));
  if (actor === undefined) return refused(['no actor']);
  // process_collection_service.rb: the activity's actor must be the signer (else an LD signature is needed).
  if ((options.signer ?? actor) !== actor) return refused(['actor is not the HTTP signer']);
  const object = activity.object;
  if (!isJson(object)) {
    return refused(['object given by reference: Mastodon dereferences it (not modelled here)']);
  }
  // activity.rb `unsupported_object_type?`.
  if (!hasAnyType(object, [...SUPPORTED_TYPES, ...CONVERTED_TYPES])) {
    return refused([`object type ${typesOf(object).join(',') || 'none'} is neither supported nor converted`]);
  }
  // create.rb `create_status`: non_matching_uri_hosts?(@account.uri, object_uri).
  if (nonMatchingUriHosts(actor, object.id)) {
    return refused([`object id ${String(object.id)} is not an http(s) URL on the actor's host`]);
  }
  if (!(options.followedByLocalAccounts ?? true)) {
    return refused(['nobody on the instance follows the author (related_to_local_activity?)']);
  }
  const post = statusFrom(activity, object, options.followersCollection ?? `${actor}/followers`, notes);
  if (post.audience === 'direct') {
    return {
      shown: false,
      reasons: ['addressed to neither the public nor the followers: a direct message'],
      notes,
      post,
    };
  }
  return { shown: true, reasons: [], notes, post };
}

/** `updated` as a time, or null (status_parser.rb `edited_at`). */
function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/**
 * What Mastodon does with an `Update` of a post it stored from `previous` (a Create it showed).
 * update.rb `update_status` and services/activitypub/process_status_update_service.rb.
 */
export function updatesPost(previous: Json, update: Json, options: MastodonOptions = {}): UpdateVerdict {
  const notes: string[] = [];
  if (!hasAsContext(update)) return { outcome: 'ignored', reasons: ['@context lacks the AS context'], notes };
  if (update.type !== 'Update') return { outcome: 'ignored', reasons: ['not an Update'], notes };
  const actor = valueOrId(firstOf(update.actor));
  const object = update.object;
  if (actor === undefined || !isJson(object)) {
    return { outcome: 'ignored', reasons: ['no actor, or object given by reference (not modelled)'], notes };
  }
  if (!hasAnyType(object, [...SUPPORTED_TYPES, ...CONVERTED_TYPES])) {
    return {
      outcome: 'ignored',
      reasons: [`Update of a ${typesOf(object).join(',')} is not a status edit`],
      notes,
    };
  }
  if (nonMatchingUriHosts(actor, object.id)) {
    return { outcome: 'ignored', reasons: ['object id not on the actor host'], notes };
  }
  const before = showsPost(previous, options);
  const beforeObject = isJson(previous.object) ? previous.object : {};
  if (!before.post || beforeObject.id !== object.id || valueOrId(firstOf(previous.actor)) !== actor) {
    // update.rb: an Update of an unknown recent status is handled as its Create.
    const created = showsPost({ ...update, type: 'Create' }, options);
    return {
      outcome: created.shown ? 'created' : 'ignored',
      reasons: created.shown ? [] : ['no such status, and as a Create it is not shown', ...created.reasons],
      notes: ['no earlier status with this id: handled as a Create', ...created.notes],
      ...(created.post ? { post: created.post } : {}),
    };
  }
  // process_status_update_service.rb `expected_type?`: only Note and Question are edited.
  if (!hasAnyType(object, SUPPORTED_TYPES)) {
    return { outcome: 'ignored', reasons: ['only Note and Question statuses are edited'], notes };
  }
  const published = timeOf(beforeObject.published);
  const previousUpdated = timeOf(beforeObject.updated);
  // create.rb: edited_at is set at creation only when `updated` differs from `published`.
  const editedAt = previousUpdated !== null && previousUpdated !== published ? previousUpdated : null;
  const updated = timeOf(object.updated);
  if (editedAt !== null && updated !== null && editedAt > updated) {
    return { outcome: 'ignored', reasons: ['already updated more recently'], notes };
  }
  if (updated === null || (editedAt !== null && updated <= editedAt)) {
    return {
      outcome: 'ignored',
      reasons: ['`updated` missing or not newer: an implicit update (only poll results are refreshed)'],
      notes,
    };
  }
  const after = statusFrom(update, object, options.followersCollection ?? `${actor}/followers`, notes);
  const old = before.post;
  const mediaKey = (p: PostShown) => JSON.stringify(p.pictures.map((m) => [m.url, m.alt]));
  const significant =
    old.text.trim() !== after.text.trim() ||
    (old.contentWarning ?? '') !== (after.contentWarning ?? '') ||
    mediaKey(old) !== mediaKey(after);
  if (!significant) {
    notes.push(
      'no text, content-warning or media change: saved without an edit (the sensitive flag is applied)',
    );
  }
  return { outcome: significant ? 'edited' : 'unchanged', reasons: [], notes, post: after };
}

/** delete.rb `delete_object`: removes the status with the object's id, owned by the actor. */
export function deletesPost(previous: Json, del: Json): DeleteVerdict {
  if (del.type !== 'Delete') return { removed: false, reasons: ['not a Delete'] };
  const actor = valueOrId(firstOf(del.actor));
  const objectId = valueOrId(del.object);
  if (actor === undefined || objectId === undefined)
    return { removed: false, reasons: ['no actor or object id'] };
  if (objectId === actor) return { removed: false, reasons: ['a Delete of the actor deletes the account'] };
  const stored = isJson(previous.object) ? previous.object.id : undefined;
  if (stored !== objectId) return { removed: false, reasons: [`no status with uri ${objectId}`] };
  if (valueOrId(firstOf(previous.actor)) !== actor)
    return { removed: false, reasons: ['status of another account'] };
  return { removed: true, reasons: [] };
}

/** Account::Field#verifiable? on a remote value: one <a> whose href equals its text, https, no user info. */
function verifiable(value: string): boolean {
  const match = /^\s*<a\s[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>\s*$/i.exec(value);
  if (!match || match[1] !== match[2]) return false;
  const url = match[1] ?? '';
  return url.startsWith('https://') && isHttpUrl(url) && !/^https:\/\/[^/]*@/.test(url);
}

/** process_account_service.rb `image_url_and_description`: an embedded object's url (a string is fetched). */
function imageOf(value: unknown, key: string, notes: string[]): ProfileImage | null {
  const first = firstOf(value);
  if (first === undefined || first === null) return null;
  if (typeof first === 'string') {
    notes.push(`${key} is a link to a separate document: Mastodon fetches it (not modelled)`);
    return null;
  }
  if (!isJson(first)) return null;
  const url = urlToHref(first.url);
  if (url === undefined || unsupportedUriScheme(url)) {
    notes.push(`${key} has no http(s) url`);
    return null;
  }
  return { url, alt: str(first.name) ?? null };
}

/** process_account_service.rb `valid_collection_uri`. */
function collectionUri(value: unknown): string | null {
  const uri = valueOrId(firstOf(value));
  return uri !== undefined && isHttpUrl(uri) ? uri : null;
}

/** What Mastodon stores and shows of an actor document (fetch or `Update{Person}`). */
export function showsProfile(actor: Json, fetchedFrom?: string): ProfileVerdict {
  const notes: string[] = [];
  const reasons: string[] = [];
  // json_ld_helper.rb `supported_context?`; fetch_resource_service.rb: id equals the URL fetched.
  if (!hasAsContext(actor)) reasons.push('@context lacks https://www.w3.org/ns/activitystreams');
  const id = str(actor.id);
  if (id === undefined || unsupportedUriScheme(id)) reasons.push('id is not an http(s) URL');
  if (fetchedFrom !== undefined && id !== fetchedFrom)
    reasons.push('id differs from the URL it was fetched from');
  // fetch_remote_actor_service.rb: an actor type.
  if (!hasAnyType(actor, ACTOR_TYPES))
    reasons.push(`type ${typesOf(actor).join(',') || 'none'} is not an actor`);
  // fetch_remote_actor_service.rb: the username (preferredUsername, or FEP-2c59 webfinger).
  if (!present(actor.preferredUsername) && !present(actor.webfinger)) reasons.push('no preferredUsername');
  // process_account_service.rb `call`: returns when inbox is blank.
  if (!present(actor.inbox)) reasons.push('no inbox');
  if (reasons.length > 0) return { accepted: false, reasons, notes };
  if (!isJson(firstOf(actor.publicKey))) notes.push('no embedded publicKey: signatures cannot be checked');

  // process_account_service.rb `property_values`: only when attachment is a list; type == 'PropertyValue'.
  const fields: ProfileField[] = [];
  if (actor.attachment !== undefined && !Array.isArray(actor.attachment)) {
    notes.push('attachment is not a list: Mastodon reads no profile fields');
  }
  for (const item of Array.isArray(actor.attachment) ? actor.attachment : []) {
    if (!isJson(item) || item.type !== 'PropertyValue') continue;
    // Account#fields drops a field whose name or value is not a string (Account::Field#initialize raises).
    if (typeof item.name !== 'string' || typeof item.value !== 'string') {
      notes.push('PropertyValue without a string name and value dropped');
      continue;
    }
    const name = item.name.trim().slice(0, FIELD_MAX_CHARACTERS_COMPAT);
    const value = item.value.trim().slice(0, FIELD_MAX_CHARACTERS_COMPAT);
    fields.push({ name, value, verifiable: verifiable(value) });
  }
  // process_account_service.rb `url`: only on the actor's own host, else the id.
  const rawUrl = present(actor.url) ? urlToHref(actor.url, 'text/html') : undefined;
  const url =
    rawUrl !== undefined && !unsupportedUriScheme(rawUrl) && hostOf(rawUrl) === hostOf(id)
      ? rawUrl
      : (id ?? null);
  if (rawUrl !== undefined && url !== rawUrl) notes.push('url on another host than the id: the id is shown');
  const featured = actor.featured === undefined ? null : collectionUri(actor.featured);
  if (actor.featured !== undefined && featured === null)
    notes.push('featured is not an http(s) collection URI');
  return {
    accepted: true,
    reasons: [],
    notes,
    profile: {
      displayName: (str(actor.name) ?? '').slice(0, DISPLAY_NAME_LENGTH_HARD_LIMIT),
      bioHtml: (str(actor.summary) ?? '').slice(0, NOTE_LENGTH_HARD_LIMIT),
      avatar: imageOf(actor.icon, 'icon', notes),
      header: imageOf(actor.image, 'image', notes),
      fields,
      pinnedCollection: featured,
      indexable: rubyTruthy(actor.indexable),
      discoverable: rubyTruthy(actor.discoverable),
      locked: rubyTruthy(actor.manuallyApprovesFollowers),
      url,
    },
  };
}

/**
 * fetch_featured_collection_service.rb: the pinned posts Mastodon takes from an actor's `featured`
 * collection (each is then fetched and must be attributed to the actor).
 */
export function pinnedFromFeatured(collection: Json, actorId: string): { pinned: string[]; notes: string[] } {
  const notes: string[] = [];
  if (!hasAsContext(collection)) return { pinned: [], notes: ['@context lacks the AS context: ignored'] };
  let page: unknown = collection;
  if (present(collection.first)) {
    if (!isJson(collection.first))
      return { pinned: [], notes: ['first page given by reference (not modelled)'] };
    page = collection.first;
  }
  if (!isJson(page)) return { pinned: [], notes };
  const items = hasAnyType(page, ['Collection', 'CollectionPage'])
    ? page.items
    : hasAnyType(page, ['OrderedCollection', 'OrderedCollectionPage'])
      ? page.orderedItems
      : undefined;
  const pinned: string[] = [];
  for (const item of asArray(items)) {
    if (!(typeof item === 'string' || (isJson(item) && item.type === 'Note'))) {
      notes.push(`pinned item of type ${isJson(item) ? String(item.type) : typeof item} skipped (only Note)`);
      continue;
    }
    const uri = valueOrId(item);
    if (uri === undefined || nonMatchingUriHosts(actorId, uri)) {
      notes.push(`pinned item ${String(uri)} skipped: not on the actor's host`);
      continue;
    }
    pinned.push(uri);
  }
  return { pinned, notes };
}
