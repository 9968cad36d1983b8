/**
 * Misskey (misskey-dev/misskey, packages/backend/src/core/activitypub/ as stored): what it does with an
 * incoming Create and an actor. Files: ApInboxService.ts (`create`: audiences copied between activity and
 * object, attributedTo defaulted to the actor), models/ApNoteService.ts (`validateNote`, `createNote`),
 * models/ApImageService.ts (`createImage`), ApAudienceService.ts (`parseAudience`), type.ts (`validPost`,
 * `isHashtag`, `isPropertyValue`, `getOneApHrefNullable`), models/tag.ts (`extractApHashtags`),
 * models/ApPersonService.ts (`validateActor`, `createPerson`, `resolveAvatarAndBanner`).
 */
import {
  asArray,
  firstShownMedia,
  hostOf,
  isHttpsUrl,
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

/** type.ts `validPost`. */
export const VALID_POST = [
  'Note',
  'Question',
  'Article',
  'Audio',
  'Document',
  'Image',
  'Page',
  'Video',
  'Event',
];
/** type.ts `validActor`. */
export const VALID_ACTOR = ['Person', 'Service', 'Group', 'Organization', 'Application'];
/** const.ts DB_MAX_IMAGE_COMMENT_LENGTH: the alt text kept. */
export const MAX_IMAGE_COMMENT_LENGTH = 512;
/** ApPersonService.ts nameLength / summaryLength. */
export const NAME_LENGTH = 128;
export const SUMMARY_LENGTH = 2048;

export interface MisskeyOptions {
  /**
   * Some releases and forks (e.g. the GHSA-6w2c-vf6f-xf26 fix) also require the note's `url` on the same
   * host as its `id`. Default false (upstream as read).
   */
  readonly requireUrlOnIdHost?: boolean;
  /** The author's followers collection as stored (`followersUri`); default `<actor>/followers`. */
  readonly followersCollection?: string;
}

/** type.ts `getApType`: the type, or the first of a list. */
function apType(object: Json): string | undefined {
  if (typeof object.type === 'string') return object.type;
  return Array.isArray(object.type) && typeof object.type[0] === 'string' ? object.type[0] : undefined;
}

/** type.ts `getOneApHrefNullable`: the first of a list; a string, or a Link's href. */
function oneHref(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first;
  return isJson(first) ? str(first.href) : undefined;
}

/** ApAudienceService.ts `isPublic` (note: `as#Public`, not `as:Public`). */
function isPublic(id: string | undefined): boolean {
  return id === 'https://www.w3.org/ns/activitystreams#Public' || id === 'as#Public' || id === 'Public';
}

/** What Misskey does with an incoming `Create`. */
export function showsPost(activity: Json, options: MisskeyOptions = {}): PostVerdict {
  const notes: string[] = [];
  if (activity.type !== 'Create') return refused([`not a Create (${String(activity.type)})`]);
  const actor = valueOrId(asArray(activity.actor)[0]);
  if (actor === undefined) return refused(['no actor']);
  if (activity.object === undefined || activity.object === null) return refused(['activity has no object']);
  if (!isJson(activity.object)) return refused(['object given by reference: fetched (not modelled)']);
  // ApInboxService.ts `create`: copy audiences between activity and object; default attributedTo.
  const to = [...new Set([...asArray(activity.to), ...asArray(activity.object.to)])];
  const cc = [...new Set([...asArray(activity.cc), ...asArray(activity.object.cc)])];
  const object: Json = { ...activity.object, to, cc };
  if (!object.attributedTo) object.attributedTo = activity.actor;
  // ApNoteService.ts `validateNote`.
  const type = apType(object);
  if (type === undefined || !VALID_POST.includes(type))
    return refused([`invalid Note: invalid object type ${String(type)}`]);
  const id = str(object.id);
  if (id === undefined) return refused(['Refusing to create note without id']);
  const attribution = valueOrId(asArray(object.attributedTo)[0]);
  if (attribution === undefined || hostOf(attribution) !== hostOf(id)) {
    return refused(['invalid Note: attributedTo has different host']);
  }
  if (attribution !== actor)
    return refused(['invalid Note: attribution does not match the actor that sent it']);
  if (object.published !== undefined && Number.isNaN(Date.parse(String(object.published)))) {
    return refused(['invalid Note: published timestamp is malformed']);
  }
  // ApNoteService.ts `createNote`: id and url must be https.
  if (!isHttpsUrl(id)) return refused([`unexpected schema of note.id: ${id}`]);
  const url = oneHref(object.url);
  if (url !== undefined && !isHttpsUrl(url)) return refused([`unexpected schema of note url: ${url}`]);
  if (url !== undefined && options.requireUrlOnIdHost && hostOf(url) !== hostOf(id)) {
    return refused(['note url has different host than its id']);
  }
  // ApImageService.ts `createImage`, for every attachment: url a string and https, else the note fails.
  const pictures: Picture[] = [];
  for (const attach of asArray(object.attachment)) {
    if (!isJson(attach)) return refused(['attachment by reference (fetched, not modelled)']);
    if (attach.url === undefined || attach.url === null) return refused(['invalid image: url not provided']);
    if (typeof attach.url !== 'string') return refused(['invalid image: unexpected type of url']);
    if (!isHttpsUrl(attach.url)) return refused([`invalid image: unexpected schema of url: ${attach.url}`]);
    const name = str(attach.name);
    const mediaType = str(attach.mediaType) ?? null;
    pictures.push({
      url: attach.url,
      alt: name === undefined ? null : name.slice(0, MAX_IMAGE_COMMENT_LENGTH),
      mediaType,
      kind: kindOf(mediaType),
    });
    if (name !== undefined && name.length > MAX_IMAGE_COMMENT_LENGTH)
      notes.push('alt text cut to 512 characters');
  }
  // ApAudienceService.ts `parseAudience`.
  const toIds = to.map(valueOrId);
  const ccIds = cc.map(valueOrId);
  const followers = options.followersCollection ?? `${actor}/followers`;
  const audience: Audience = toIds.some(isPublic)
    ? 'public'
    : ccIds.some(isPublic)
      ? 'unlisted'
      : toIds.includes(followers)
        ? 'followers'
        : 'direct';
  // tag.ts `extractApHashtags`: type Hashtag, a string name starting with '#'.
  const hashtags: string[] = [];
  for (const tag of asArray(object.tag)) {
    if (!isJson(tag) || apType(tag) !== 'Hashtag' || typeof tag.name !== 'string') continue;
    const m = /^#(.+)/.exec(tag.name);
    if (!m || m[1] === undefined) {
      notes.push(`Hashtag ${tag.name} dropped: the name must start with #`);
      continue;
    }
    hashtags.push(m[1].toLowerCase());
  }
  // Text: MFM source, else content (HTML → MFM, not modelled); cw: summary ('' → none).
  const source = isJson(object.source) ? object.source : undefined;
  const text =
    source?.mediaType === 'text/x.misskeymarkdown' && typeof source.content === 'string'
      ? source.content
      : (str(object._misskey_content) ?? str(object.content) ?? '');
  const summary = str(object.summary);
  const post = {
    text,
    permalink: url ?? id,
    uri: id,
    picture: firstShownMedia(pictures),
    pictures,
    sensitive: object.sensitive === true,
    contentWarning: summary === undefined || summary === '' ? null : summary,
    hashtags,
    audience,
  };
  if (audience === 'direct') {
    return { shown: false, reasons: ['visibility "specified": only mentioned accounts see it'], notes, post };
  }
  return { shown: true, reasons: [], notes, post };
}

/** ApPersonService.ts `resolveAvatarAndBanner` → ApImageService: an image object with an https string url. */
function imageOf(value: unknown, key: string, notes: string[]): ProfileImage | null {
  const img = Array.isArray(value) ? value.find((i) => isJson(i) && i.url) : value;
  if (!isJson(img) || img.url === undefined || img.url === null) return null;
  if (typeof img.url !== 'string' || !isHttpsUrl(img.url)) {
    notes.push(`${key}: url is not an https string; not shown`);
    return null;
  }
  const name = str(img.name);
  return { url: img.url, alt: name === undefined ? null : name.slice(0, MAX_IMAGE_COMMENT_LENGTH) };
}

/** What Misskey stores of an actor (ApPersonService.ts `validateActor`, `createPerson`/`updatePerson`). */
export function showsProfile(actor: Json, fetchedFrom?: string): ProfileVerdict {
  const reasons: string[] = [];
  const notes: string[] = [];
  const id = str(actor.id);
  const expectHost = hostOf(fetchedFrom ?? id);
  const type = apType(actor);
  if (type === undefined || !VALID_ACTOR.includes(type)) reasons.push(`invalid Actor type ${String(type)}`);
  if (id === undefined || id === '') reasons.push('invalid Actor: wrong id');
  if (typeof actor.inbox !== 'string' || actor.inbox === '') reasons.push('invalid Actor: wrong inbox');
  else if (hostOf(actor.inbox) !== expectHost) reasons.push('invalid Actor: inbox has different host');
  const endpoints = isJson(actor.endpoints) ? actor.endpoints : undefined;
  const sharedInbox = actor.sharedInbox ?? endpoints?.sharedInbox;
  if (sharedInbox !== undefined && sharedInbox !== null) {
    const uri = valueOrId(sharedInbox);
    if (uri === undefined || uri === '' || hostOf(uri) !== expectHost)
      reasons.push('invalid Actor: wrong shared inbox');
  }
  for (const collection of ['outbox', 'followers', 'following']) {
    const value = actor[collection];
    if (value === undefined || value === null) continue;
    const uri = valueOrId(value);
    if (uri === undefined || uri === '') reasons.push(`invalid Actor: wrong ${collection}`);
    else if (hostOf(uri) !== expectHost) reasons.push(`invalid Actor: ${collection} has different host`);
  }
  const username = actor.preferredUsername;
  if (
    typeof username !== 'string' ||
    username.length === 0 ||
    username.length > 128 ||
    !/^\w([\w-.]*\w)?$/.test(username)
  ) {
    reasons.push('invalid Actor: wrong username');
  }
  if (actor.name && typeof actor.name !== 'string') reasons.push('invalid Actor: wrong name');
  if (actor.summary && typeof actor.summary !== 'string') reasons.push('invalid Actor: wrong summary');
  if (hostOf(id) !== expectHost) reasons.push('invalid Actor: id has different host');
  if (isJson(actor.publicKey)) {
    if (typeof actor.publicKey.id !== 'string') reasons.push('invalid Actor: publicKey.id is not a string');
    else if (hostOf(actor.publicKey.id) !== expectHost)
      reasons.push('invalid Actor: publicKey.id has different host');
  }
  // createPerson: url https and on the id's host.
  const url = oneHref(actor.url);
  if (url !== undefined) {
    if (!isHttpsUrl(url)) reasons.push(`unexpected schema of person url: ${url}`);
    else if (hostOf(url) !== hostOf(id)) reasons.push('person url <> uri host mismatch');
  }
  if (reasons.length > 0) return { accepted: false, reasons, notes };
  // analyzeAttachments with type.ts `isPropertyValue`: string name and string value (HTML → MFM).
  const fields: ProfileField[] = asArray(actor.attachment)
    .filter(
      (a): a is Json =>
        isJson(a) &&
        apType(a) === 'PropertyValue' &&
        typeof a.name === 'string' &&
        typeof a.value === 'string',
    )
    .map((a) => ({ name: String(a.name), value: String(a.value) }));
  const summary = str(actor._misskey_summary) ?? str(actor.summary) ?? '';
  return {
    accepted: true,
    reasons: [],
    notes,
    profile: {
      displayName: (str(actor.name) ?? '').slice(0, NAME_LENGTH),
      bioHtml: summary.slice(0, SUMMARY_LENGTH),
      avatar: imageOf(actor.icon, 'icon', notes),
      header: imageOf(actor.image, 'image', notes),
      fields,
      pinnedCollection: actor.featured ? (valueOrId(actor.featured) ?? null) : null,
      indexable: null,
      discoverable: actor.discoverable === undefined ? null : actor.discoverable === true,
      locked: actor.manuallyApprovesFollowers === true,
      url: url ?? null,
    },
  };
}
