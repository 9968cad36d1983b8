/**
 * Pixelfed (pixelfed/pixelfed, dev branch as stored): what it stores of an incoming Create/Update/Delete and
 * of an actor. Files: app/Util/ActivityPub/Inbox/HandlesCreates.php, HandlesUpdates.php, HandlesDeletes.php,
 * app/Util/ActivityPub/Helpers.php, app/Jobs/StatusPipeline/StatusTagsPipeline.php,
 * StatusRemoteUpdatePipeline.php, app/Util/ActivityPub/Validator/UpdatePersonValidator.php,
 * app/Jobs/ProfilePipeline/HandleUpdateActivity.php, app/Jobs/AvatarPipeline/RemoteAvatarFetch.php.
 */
import {
  AS_PUBLIC,
  asArray,
  firstShownMedia,
  hostOf,
  isJson,
  kindOf,
  parseUrl,
  refused,
  str,
  type Audience,
  type DeleteVerdict,
  type Json,
  type Picture,
  type PostShown,
  type PostVerdict,
  type ProfileVerdict,
  type UpdateVerdict,
} from './common.js';

/** config/pixelfed.php `media_types` (env MEDIA_TYPES), the default. */
export const DEFAULT_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif'];

export interface PixelfedOptions {
  /** The instance's `pixelfed.media_types`; `video/mp4` in it also allows `Video` attachments. */
  readonly mediaTypes?: readonly string[];
  /**
   * HandlesCreates.php `handleNoteCreate`: a Note from an actor nobody on the instance follows is dropped
   * unless `federation.activitypub.ingest.store_notes_without_followers`. Default true (a follower exists).
   */
  readonly actorHasFollowers?: boolean;
  /** The Pixelfed instance's own domain (`pixelfed.domain.app`), for the direct-message test. */
  readonly domain?: string;
}

const LOCALHOST_DOMAINS = ['localhost', '127.0.0.1', '::1', 'broadcasthost', 'ip6-localhost', 'ip6-loopback'];

/**
 * Helpers.php `validateUrl` (DNS and ban checks, production-only, not modelled): a string, https, a host
 * name that is a valid hostname with a dot and not a localhost name.
 */
export function validateUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value === '') return false;
  const url = parseUrl(value);
  if (url === null || url.protocol !== 'https:') return false;
  const host = url.hostname;
  if (host === '' || !host.includes('.') || LOCALHOST_DOMAINS.includes(host)) return false;
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(host);
}

/** Laravel's `url` rule, reduced: an absolute URL with a scheme and a host (http is allowed). */
function laravelUrl(value: unknown): boolean {
  const url = parseUrl(value);
  return url !== null && url.hostname !== '';
}

/** Laravel's `integer` rule (FILTER_VALIDATE_INT): an integer or an integer string. */
function laravelInteger(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) return Number(value);
  return null;
}

/** Laravel's `required`: present, not null, not a blank string, not an empty list. */
function laravelRequired(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** Helpers.php `pluckval`: a string, or the first of a list. */
function pluckval(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Helpers.php `verifyAttachments`: every attachment must pass, or the whole post is dropped.
 * Returns the reasons one fails.
 */
export function attachmentProblems(attachments: unknown, mediaTypes: readonly string[]): string[] {
  const kinds = mediaTypes.includes('video/mp4') ? ['Document', 'Image', 'Video'] : ['Document', 'Image'];
  const problems: string[] = [];
  const list = asArray(attachments);
  if (list.length === 0) return ['no attachment'];
  list.forEach((item, i) => {
    const at = `attachment[${i}]`;
    if (!isJson(item)) {
      problems.push(`${at} is not an object`);
      return;
    }
    if (typeof item.type !== 'string' || !kinds.includes(item.type)) {
      problems.push(`${at}.type ${String(item.type)} not in ${kinds.join('/')}`);
    }
    if (!laravelRequired(item.url) || !laravelUrl(item.url)) problems.push(`${at}.url is not a URL string`);
    if (typeof item.mediaType !== 'string' || !mediaTypes.includes(item.mediaType)) {
      problems.push(`${at}.mediaType ${String(item.mediaType)} not in ${mediaTypes.join(',')}`);
    }
    if (item.name !== undefined && item.name !== null && typeof item.name !== 'string') {
      problems.push(`${at}.name is not a string`);
    }
    if (item.blurhash !== undefined && item.blurhash !== null) {
      if (typeof item.blurhash !== 'string' || item.blurhash.length < 6 || item.blurhash.length > 164) {
        problems.push(`${at}.blurhash is not a string of 6 to 164 characters`);
      }
    }
    for (const key of ['width', 'height'] as const) {
      const value = item[key];
      if (value === undefined || value === null) continue;
      const n = laravelInteger(value);
      if (n === null || n < 1 || n > 5000)
        problems.push(`${at}.${key} ${String(value)} is not an integer 1..5000`);
    }
  });
  return problems;
}

/** Helpers.php `getScope`: public if `to` has Public, unlisted if `cc` has it (checked second), else private. */
function scopeOf(object: Json): Audience {
  const has = (v: unknown) => (Array.isArray(v) ? v.includes(AS_PUBLIC) : v === AS_PUBLIC);
  let scope: Audience = 'followers';
  if (has(object.to)) scope = 'public';
  if (has(object.cc)) scope = 'unlisted';
  return scope;
}

/** StatusTagsPipeline.php: Hashtags need both `href` and `name`; the name loses one leading `#`. */
function hashtagsOf(object: Json, notes: string[]): string[] {
  const tags: string[] = [];
  if (!Array.isArray(object.tag) || object.tag.length === 0) return tags;
  for (const tag of object.tag) {
    if (!isJson(tag) || tag.type !== 'Hashtag') continue;
    if (tag.href === undefined || tag.href === null || tag.name === undefined || tag.name === null) {
      notes.push(`Hashtag ${String(tag.name)} dropped: Pixelfed needs both href and name`);
      continue;
    }
    const name = String(tag.name);
    const bare = (name.startsWith('#') ? name.slice(1) : name).toLowerCase();
    if (!tags.includes(bare)) tags.push(bare);
  }
  return tags;
}

/** What Pixelfed does with an incoming `Create`. */
export function showsPost(activity: Json, options: PixelfedOptions = {}): PostVerdict {
  const mediaTypes = options.mediaTypes ?? DEFAULT_MEDIA_TYPES;
  const notes: string[] = [];
  if (activity.type !== 'Create') return refused([`not a Create (${String(activity.type)})`]);
  const actor = pluckval(activity.actor);
  // InboxHelpers `validateAndFetchActor`: a valid (https) actor URL.
  if (!validateUrl(actor)) return refused(['actor is not a valid https URL']);
  const object = activity.object;
  if (!isJson(object)) return refused(['object is not embedded']);
  // HandlesCreates.php `handleCreateActivity`: `to` must be set on the object.
  if (object.to === undefined || object.to === null) return refused(['no `to` on the object']);
  if (object.type === 'Question') return refused(['Question (polls) are not stored from Create']);
  const to = asArray(object.to);
  const cc = asArray(object.cc);
  if (
    options.domain !== undefined &&
    to.length === 1 &&
    cc.length === 0 &&
    hostOf(to[0]) === options.domain.toLowerCase()
  ) {
    return refused(['addressed to one local account only: stored as a direct message']);
  }
  if (object.type !== 'Note') return refused([`object type ${String(object.type)}: only a Note is stored`]);
  if (object.inReplyTo !== undefined && object.inReplyTo !== null && object.inReplyTo !== '') {
    return refused(['a reply: handled by the reply path (not modelled)']);
  }
  if (asArray(object.attachment).length === 0) return refused(['a Note without attachment is not stored']);
  const problems = attachmentProblems(object.attachment, mediaTypes);
  if (problems.length > 0) return refused(['an attachment fails verifyAttachments', ...problems]);
  if (!(options.actorHasFollowers ?? true)) return refused(['the actor has no followers on the instance']);
  const id = pluckval(object.id);
  if (typeof id !== 'string' || !validateUrl(id)) return refused(['object id is not a valid https URL']);
  // HandlesCreates.php `deliveredObjectIsTrusted`: attributedTo is the actor, the id on the actor's host.
  const attributedTo = Array.isArray(object.attributedTo)
    ? object.attributedTo.filter((o) => isJson(o) && o.type === 'Person').map((o) => (o as Json).id)[0]
    : object.attributedTo;
  if (attributedTo !== actor || hostOf(id) !== hostOf(actor)) {
    return refused(["not provably the sender's object: Pixelfed fetches it by id instead (not modelled)"]);
  }
  // Helpers.php `storeStatus(string $url, …)` with $url = object url ?? id: a non-string url is a TypeError.
  if (object.url !== undefined && typeof object.url !== 'string')
    return refused(['object url is not a string']);
  const permalink = str(object.url) ?? id;
  // Helpers.php `validateStatusDomains` (for a Note): id and url both valid https URLs.
  if (!validateUrl(permalink)) return refused(['object url is not a valid https URL']);
  if (
    typeof pluckval(object.published) !== 'string' ||
    Number.isNaN(Date.parse(String(pluckval(object.published))))
  ) {
    return refused(['no usable `published`']);
  }
  // Helpers.php `importNoteAttachment` / `isValidAttachment`: media type allowed and https URL, else skipped.
  const pictures: Picture[] = [];
  for (const item of asArray(object.attachment)) {
    const a = item as Json;
    if (!validateUrl(a.url)) {
      notes.push(`attachment ${String(a.url)} skipped: not a valid https URL`);
      continue;
    }
    const mediaType = String(a.mediaType);
    pictures.push({ url: String(a.url), alt: str(a.name) ?? null, mediaType, kind: kindOf(mediaType) });
  }
  const sensitive = object.sensitive !== undefined && object.sensitive !== null && Boolean(object.sensitive);
  const post: PostShown = {
    text: str(object.content) ?? '',
    permalink,
    uri: permalink,
    picture: firstShownMedia(pictures),
    pictures,
    sensitive,
    // Helpers.php `createOrUpdateStatus`: the summary is the CW only when the post is sensitive.
    contentWarning: sensitive ? (str(object.summary) ?? null) : null,
    hashtags: hashtagsOf(object, notes),
    audience: scopeOf(object),
  };
  // Helpers.php `handleStatusPostProcessing`: only photo/video statuses go to the followers' feeds.
  if (pictures.length === 0) {
    return { shown: false, reasons: ['no usable media: a text status, put in no timeline'], notes, post };
  }
  return { shown: true, reasons: [], notes, post };
}

/**
 * HandlesUpdates.php + StatusRemoteUpdatePipeline.php: an Update of a Note the actor owns always edits
 * (no `updated` check); media are replaced by the valid items (a HEAD check of each file is not modelled).
 */
export function updatesPost(previous: Json, update: Json, options: PixelfedOptions = {}): UpdateVerdict {
  const mediaTypes = options.mediaTypes ?? DEFAULT_MEDIA_TYPES;
  const notes: string[] = [];
  const object = update.object;
  if (update.type !== 'Update' || !isJson(object) || object.type === undefined || object.id === undefined) {
    return { outcome: 'ignored', reasons: ['not an Update with an embedded typed object'], notes };
  }
  if (!validateUrl(object.id))
    return { outcome: 'ignored', reasons: ['object id is not a valid https URL'], notes };
  if (object.type !== 'Note')
    return { outcome: 'ignored', reasons: [`Update of a ${String(object.type)}`], notes };
  const before = showsPost(previous, options);
  const previousObject = isJson(previous.object) ? previous.object : {};
  if (
    !before.post ||
    previousObject.id !== object.id ||
    pluckval(previous.actor) !== pluckval(update.actor)
  ) {
    return { outcome: 'ignored', reasons: ['no status with this object_url owned by the actor'], notes };
  }
  let pictures = before.post.pictures;
  if (object.attachment !== undefined) {
    const kept = asArray(object.attachment).filter(
      (a): a is Json =>
        isJson(a) &&
        a.type !== undefined &&
        a.mediaType !== undefined &&
        a.url !== undefined &&
        ['Document', 'Image', 'Video'].includes(String(a.type)) &&
        mediaTypes.includes(String(a.mediaType)),
    );
    if (kept.length > 0 || pictures.length > 0) {
      pictures = kept.map((a) => ({
        url: String(a.url),
        alt: typeof a.name === 'string' && a.name !== '' ? a.name : null,
        mediaType: String(a.mediaType),
        kind: kindOf(String(a.mediaType)),
      }));
    }
  }
  const sensitive = object.sensitive === undefined ? before.post.sensitive : Boolean(object.sensitive);
  const post: PostShown = {
    ...before.post,
    text: object.content !== undefined ? String(object.content) : before.post.text,
    pictures,
    picture: firstShownMedia(pictures),
    sensitive,
    contentWarning: str(object.summary) ?? null,
  };
  return { outcome: 'edited', reasons: [], notes, post };
}

/** HandlesDeletes.php: a Delete needs an embedded object with id and type Person/Tombstone/Story. */
export function deletesPost(previous: Json, del: Json): DeleteVerdict {
  const actor = del.actor;
  const object = del.object;
  if (del.type !== 'Delete' || actor === undefined || object === undefined) {
    return { removed: false, reasons: ['not a Delete with actor and object'] };
  }
  if (typeof object === 'string') {
    return {
      removed: false,
      reasons: [
        object === actor ? 'a Delete of the actor deletes the account' : 'object by reference: ignored',
      ],
    };
  }
  if (!isJson(object) || object.id === undefined || object.type === undefined) {
    return { removed: false, reasons: ['object lacks id or type'] };
  }
  if (!['Person', 'Tombstone', 'Story'].includes(String(object.type))) {
    return { removed: false, reasons: [`object type ${String(object.type)} is not deleted`] };
  }
  if (!validateUrl(actor) || !validateUrl(object.id)) return { removed: false, reasons: ['not https URLs'] };
  if (hostOf(object.id) !== hostOf(actor)) return { removed: false, reasons: ['object on another host'] };
  if (object.type !== 'Tombstone') return { removed: false, reasons: ['not a Tombstone'] };
  const stored = isJson(previous.object) ? previous.object : {};
  const storedUrl = typeof stored.url === 'string' ? stored.url : stored.id;
  if (object.id !== stored.id && object.id !== storedUrl)
    return { removed: false, reasons: ['no such status'] };
  if (pluckval(previous.actor) !== actor) return { removed: false, reasons: ['status of another profile'] };
  return { removed: true, reasons: [] };
}

/**
 * What Pixelfed stores of an actor it fetches (Helpers.php `profileUpdateOrCreate`, `isValidProfileData`,
 * `extractUsername`, `buildProfileData`; avatar from RemoteAvatarFetch.php). Pixelfed shows no header
 * image and no profile fields of remote accounts.
 */
export function showsProfile(actor: Json, fetchedFrom?: string): ProfileVerdict {
  const reasons: string[] = [];
  const notes: string[] = [];
  if (actor.id === undefined || actor.inbox === undefined) reasons.push('no id or no inbox');
  if (!validateUrl(actor.inbox) || !validateUrl(actor.id))
    reasons.push('id or inbox is not a valid https URL');
  if (fetchedFrom !== undefined && hostOf(fetchedFrom) !== hostOf(actor.id)) {
    reasons.push('id on another host than the URL fetched');
  }
  const username = str(actor.preferredUsername) ?? str(actor.nickname);
  if (username === undefined || username === '' || !/^[a-z0-9]+$/i.test(username.replace(/[_.-]/g, ''))) {
    reasons.push('preferredUsername is missing or has characters other than letters, digits, _ . -');
  }
  // buildProfileData reads publicKey.id and publicKey.publicKeyPem without a guard.
  const key = actor.publicKey;
  if (!isJson(key) || key.id === undefined || key.publicKeyPem === undefined) {
    reasons.push('no publicKey {id, publicKeyPem}');
  }
  if (reasons.length > 0) return { accepted: false, reasons, notes };
  const icon = actor.icon;
  let avatar = null;
  if (isJson(icon) && icon.type === 'Image' && validateUrl(icon.url)) {
    avatar = { url: String(icon.url), alt: null };
  } else if (icon !== undefined) {
    notes.push('icon is not an embedded Image with a valid https url: default avatar');
  }
  if (actor.image !== undefined) notes.push('header image: Pixelfed shows none for remote accounts');
  if (actor.attachment !== undefined) notes.push('profile fields: Pixelfed shows none for remote accounts');
  return {
    accepted: true,
    reasons: [],
    notes,
    profile: {
      displayName: str(actor.name) ?? 'user',
      bioHtml: str(actor.summary) ?? '',
      avatar,
      header: null,
      fields: [],
      pinnedCollection: null,
      indexable: actor.indexable === undefined ? false : Boolean(actor.indexable),
      discoverable: null,
      locked: actor.manuallyApprovesFollowers === undefined ? true : Boolean(actor.manuallyApprovesFollowers),
      url: str(actor.url) ?? str(actor.id) ?? null,
    },
  };
}

/**
 * UpdatePersonValidator.php: the rules an `Update{Person}` must pass before Pixelfed applies it
 * (HandleUpdateActivity.php). Laravel `required` fails on null and on '' — so `summary` and `name` must be
 * non-empty strings although the rule also says `nullable`.
 */
export function acceptsProfileUpdate(update: Json): { accepted: boolean; reasons: string[] } {
  const reasons: string[] = [];
  const actor = update.actor;
  const object = isJson(update.object) ? update.object : null;
  const sameHost = (value: unknown) => laravelRequired(value) && hostOf(value) === hostOf(actor);
  if (!laravelRequired(update['@context'])) reasons.push('@context required');
  if (typeof update.id !== 'string' || !laravelUrl(update.id)) reasons.push('id must be a URL string');
  if (update.type !== 'Update') reasons.push('type must be Update');
  if (!laravelUrl(actor)) reasons.push('actor must be a URL');
  if (object === null) return { accepted: false, reasons: [...reasons, 'object required'] };
  if (!laravelUrl(object.id) || object.id !== actor || !sameHost(object.id))
    reasons.push('object.id must be the actor');
  if (object.type !== 'Person') reasons.push('object.type must be Person');
  const key = isJson(object.publicKey) ? object.publicKey : null;
  if (key === null) reasons.push('object.publicKey required');
  else {
    if (!laravelUrl(key.id) || !sameHost(key.id))
      reasons.push('publicKey.id must be a URL on the actor host');
    if (!laravelUrl(key.owner) || key.owner !== actor) reasons.push('publicKey.owner must be the actor');
    if (typeof key.publicKeyPem !== 'string' || key.publicKeyPem === '')
      reasons.push('publicKeyPem required');
  }
  for (const field of ['url', 'inbox', 'outbox', 'following', 'followers'] as const) {
    if (!laravelUrl(object[field]) || !sameHost(object[field]))
      reasons.push(`object.${field} must be a URL on the actor host`);
  }
  if (typeof object.summary !== 'string' || object.summary.trim() === '') {
    reasons.push('object.summary must be a non-empty string (required)');
  }
  if (typeof object.preferredUsername !== 'string' || object.preferredUsername === '') {
    reasons.push('object.preferredUsername required');
  }
  if (typeof object.name !== 'string' || object.name.trim() === '') {
    reasons.push('object.name must be a non-empty string (required)');
  }
  if (object.manuallyApprovesFollowers === undefined || object.manuallyApprovesFollowers === null) {
    reasons.push('object.manuallyApprovesFollowers required');
  }
  if (isJson(object.icon)) {
    const icon = object.icon;
    const any = icon.type !== undefined || icon.url !== undefined || icon.mediaType !== undefined;
    if (any) {
      if (icon.type !== 'Image') reasons.push('icon.type must be Image');
      if (!laravelUrl(icon.url)) reasons.push('icon.url must be a URL');
      if (!['image/jpeg', 'image/png', 'image/jpg'].includes(String(icon.mediaType))) {
        reasons.push(`icon.mediaType ${String(icon.mediaType)} not in image/jpeg,image/png,image/jpg`);
      }
    }
  }
  if (isJson(object.endpoints) && object.endpoints.sharedInbox !== undefined) {
    if (!laravelUrl(object.endpoints.sharedInbox) || !sameHost(object.endpoints.sharedInbox)) {
      reasons.push('sharedInbox must be a URL on the actor host');
    }
  }
  return { accepted: reasons.length === 0, reasons };
}
