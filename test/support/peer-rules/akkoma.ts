/**
 * Akkoma (and Pleroma, its parent): what it does with an incoming Create and an actor. Read from the Akkoma
 * tree stored as BDX-town/Akkoma and from pleroma-social/pleroma (files under lib/pleroma/web/activity_pub/):
 * transmogrifier.ex (`handle_incoming_normalised` Create clause, `fix_create_visibility`, `fix_attachments`,
 * `fix_tag`, `normalise_addressing_public`), object_validator.ex (the accepted object types),
 * object_validators/article_note_page_validator.ex, audio_image_video_validator.ex (Pleroma),
 * attachment_validator.ex, common_validations.ex (`validate_any_presence`, `validate_host_match`),
 * object_validators/user_validator.ex and activity_pub.ex (`object_to_user_data`).
 */
import {
  AS_PUBLIC,
  asArray,
  firstShownMedia,
  hostOf,
  isHttpUrl,
  isJson,
  kindOf,
  refused,
  str,
  valueOrId,
  type Audience,
  type Json,
  type Picture,
  type PostVerdict,
  type ProfileField,
  type ProfileImage,
  type ProfileVerdict,
} from './common.js';

/** transmogrifier.ex / object_validator.ex Create clause (Akkoma): Image and Document are not among them. */
export const AKKOMA_CREATE_TYPES = [
  'Question',
  'Answer',
  'Audio',
  'Video',
  'Event',
  'Article',
  'Note',
  'Page',
];
/** Pleroma's object_validator.ex also validates Image (AudioImageVideoValidator). */
export const PLEROMA_CREATE_TYPES = [...AKKOMA_CREATE_TYPES, 'Image'];
/** Pleroma.Constants.actor_types. */
const ACTOR_TYPES = ['Application', 'Group', 'Organization', 'Person', 'Service'];

export interface AkkomaOptions {
  /** 'akkoma' (default) or 'pleroma': Pleroma still accepts `Image` objects (with an attachment). */
  readonly flavour?: 'akkoma' | 'pleroma';
  /** The author's follower address as stored; default `<actor>/followers`. */
  readonly followersCollection?: string;
}

/** transmogrifier.ex `normalise_addressing_public`: "Public" and "as:Public" become the full URI. */
function addressing(value: unknown): string[] {
  return asArray(value)
    .filter((v): v is string => typeof v === 'string')
    .map((v) => (v === 'Public' || v === 'as:Public' ? AS_PUBLIC : v));
}

/** A MIME type MIME.extensions/1 would know, approximately: a well-formed type/subtype. */
function knownMime(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z]+\/[a-z0-9.+-]+$/i.test(value);
}

/** What Akkoma does with an incoming `Create`. */
export function showsPost(activity: Json, options: AkkomaOptions = {}): PostVerdict {
  const notes: string[] = [];
  const flavour = options.flavour ?? 'akkoma';
  if (activity.type !== 'Create') return refused([`not a Create (${String(activity.type)})`]);
  // transmogrifier.ex: ids shorter than 8 bytes, or missing, are refused.
  if (typeof activity.id !== 'string' || activity.id.length < 8)
    return refused(['activity id missing or too short']);
  const actor = valueOrId(asArray(activity.actor)[0]);
  if (actor === undefined) return refused(['no actor']);
  const object = activity.object;
  if (!isJson(object) || typeof object.id !== 'string') return refused(['object is not embedded with an id']);
  const type = str(object.type);
  const accepted = flavour === 'pleroma' ? PLEROMA_CREATE_TYPES : AKKOMA_CREATE_TYPES;
  if (type === undefined || !accepted.includes(type)) {
    return refused([
      `object type ${String(type)} has no validator (${flavour} accepts ${accepted.join(' ')})`,
    ]);
  }
  // fix_create_visibility: the activity's addressing is replaced by the object's; the object validators
  // (validate_any_presence [:cc, :to]) need the object's own to or cc.
  const to = addressing(object.to);
  const cc = addressing(object.cc);
  if (to.length === 0 && cc.length === 0) return refused(['none of [:cc, :to] present on the object']);
  // fix_actor: attributedTo becomes the object's actor; validate_fields_match [:actor, :attributedTo];
  // CreateGenericValidator: the object's actor is the activity's actor.
  const attributedTo = valueOrId(asArray(object.attributedTo)[0]);
  if (attributedTo === undefined) return refused(['no attributedTo']);
  if (attributedTo !== actor) return refused(["the object's actor is not the activity's actor"]);
  // validate_host_match [:id, :actor].
  if (hostOf(object.id) !== hostOf(attributedTo)) return refused(["hosts of [:id, :actor] aren't matching"]);
  // fix_url then ObjectValidators.Uri: an http(s) URL with a host.
  const rawUrl = Array.isArray(object.url)
    ? (str(object.url[0]) ?? (isJson(object.url[0]) ? str(object.url[0].href) : undefined))
    : isJson(object.url)
      ? str(object.url.href)
      : object.url;
  if (rawUrl !== undefined && !isHttpUrl(rawUrl))
    return refused(['url is not an http(s) URL (ObjectValidators.Uri)']);
  // transmogrifier.ex `fix_attachments` + attachment_validator.ex: no href → dropped; the type must be
  // Document/Audio/Image/Video (an invalid embed invalidates the whole object); href an http(s) URL.
  const pictures: Picture[] = [];
  for (const item of asArray(object.attachment)) {
    if (!isJson(item)) continue;
    const url = Array.isArray(item.url) ? item.url[0] : item.url;
    const href = isJson(url) ? str(url.href) : (str(item.url) ?? str(item.href));
    if (href === undefined) {
      notes.push('attachment without an href dropped');
      continue;
    }
    const attachmentType = str(item.type) ?? 'Document';
    if (!['Document', 'Audio', 'Image', 'Video'].includes(attachmentType)) {
      return refused([`attachment type ${attachmentType} is invalid: the object fails validation`]);
    }
    if (!isHttpUrl(href)) return refused([`attachment url ${href} is not an http(s) URL`]);
    const declared =
      isJson(url) && knownMime(url.mediaType)
        ? url.mediaType
        : knownMime(item.mediaType)
          ? item.mediaType
          : null;
    const mediaType = declared ?? 'application/octet-stream';
    pictures.push({ url: href, alt: str(item.name) ?? null, mediaType, kind: kindOf(mediaType) });
  }
  // audio_(image_)video_validator.ex: validate_required [... :attachment].
  if (['Audio', 'Video', 'Image'].includes(type) && pictures.length === 0) {
    return refused([`${type} without attachment fails validation (required :attachment)`]);
  }
  // transmogrifier.ex `fix_tag`: Hashtags with a name, '#' removed, lower-cased (no href needed).
  const hashtags: string[] = [];
  for (const tag of asArray(object.tag)) {
    if (!isJson(tag) || tag.type !== 'Hashtag' || typeof tag.name !== 'string' || tag.name === '') continue;
    const name = (tag.name.startsWith('#') ? tag.name.slice(1) : tag.name).toLowerCase();
    if (!hashtags.includes(name)) hashtags.push(name);
  }
  const followers = options.followersCollection ?? `${actor}/followers`;
  const audience: Audience = to.includes(AS_PUBLIC)
    ? 'public'
    : cc.includes(AS_PUBLIC)
      ? 'unlisted'
      : to.includes(followers) || cc.includes(followers)
        ? 'followers'
        : 'direct';
  const contentMap = isJson(object.contentMap) ? Object.values(object.contentMap)[0] : undefined;
  const summary = str(object.summary);
  const post = {
    text: str(contentMap) ?? str(object.content) ?? '',
    permalink: str(rawUrl) ?? object.id,
    uri: object.id,
    picture: firstShownMedia(pictures),
    pictures,
    sensitive: object.sensitive === true,
    contentWarning: summary === undefined || summary === '' ? null : summary,
    hashtags,
    audience,
  };
  if (audience === 'direct') return { shown: false, reasons: ['a direct message'], notes, post };
  return { shown: true, reasons: [], notes, post };
}

/** activity_pub.ex `normalize_image`: `{url}` (a string, or the first of a list), alt from `name`. */
function imageOf(value: unknown): ProfileImage | null {
  const image = Array.isArray(value) ? value[0] : value;
  if (!isJson(image)) return null;
  const url = Array.isArray(image.url) ? image.url[0] : image.url;
  const href = typeof url === 'string' ? url : isJson(url) ? str(url.href) : undefined;
  return href === undefined ? null : { url: href, alt: str(image.name) ?? null };
}

/** What Akkoma stores of an actor (user_validator.ex, activity_pub.ex `object_to_user_data`). */
export function showsProfile(actor: Json): ProfileVerdict {
  const reasons: string[] = [];
  const notes: string[] = [];
  const id = str(actor.id);
  if (!ACTOR_TYPES.includes(String(actor.type)) || id === undefined) reasons.push('Not a user object');
  const key = actor.publicKey;
  if (isJson(key) && key.id !== undefined && key.publicKeyPem !== undefined) {
    if (typeof key.id !== 'string' || hostOf(key.id) !== hostOf(id))
      reasons.push('Problematic actor-key pairing');
  }
  if (actor.inbox === undefined) reasons.push('No inbox');
  else if (hostOf(actor.inbox) !== hostOf(id)) reasons.push('Inbox on different domain');
  for (const field of ['followers', 'following', 'featured']) {
    const value = actor[field];
    if (value !== undefined && value !== null && hostOf(valueOrId(value)) !== hostOf(id)) {
      reasons.push(`${field} on different domain`);
    }
  }
  if (typeof actor.preferredUsername !== 'string')
    notes.push('no preferredUsername: no nickname (virtual actor)');
  if (reasons.length > 0) return { accepted: false, reasons, notes };
  const fields: ProfileField[] = asArray(actor.attachment)
    .filter(
      (a): a is Json =>
        isJson(a) && a.type === 'PropertyValue' && typeof a.name === 'string' && typeof a.value === 'string',
    )
    .map((a) => ({ name: String(a.name), value: String(a.value) }));
  return {
    accepted: true,
    reasons: [],
    notes,
    profile: {
      displayName: str(actor.name) ?? '',
      bioHtml: str(actor.summary) ?? '',
      avatar: imageOf(actor.icon),
      header: imageOf(actor.image),
      fields,
      pinnedCollection: valueOrId(actor.featured) ?? null,
      indexable: typeof actor.indexable === 'boolean' ? actor.indexable : null,
      discoverable: Boolean(actor.discoverable ?? false),
      locked: Boolean(actor.manuallyApprovesFollowers ?? false),
      url: (Array.isArray(actor.url) ? str(actor.url[0]) : str(actor.url)) ?? null,
    },
  };
}
