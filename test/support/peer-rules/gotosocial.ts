/**
 * GoToSocial (superseriousbusiness/gotosocial as stored): what it does with an incoming Create and an actor.
 * Files: internal/ap/interfaces.go (IsStatusable, IsAccountable), internal/ap/extract.go (ExtractVisibility,
 * ExtractAttachments, ExtractHashtags, ExtractURL, ExtractIconURI, ExtractFields, ExtractPublicKey),
 * internal/typeutils/astointernal.go (ASStatusToStatus, ASRepresentationToAccount),
 * internal/federation/federatingdb/create.go (createStatusable, shouldAcceptStatusable).
 *
 * GoToSocial parses through go-fed's typed vocabulary: a property holding an IRI is a JSON string, a property
 * holding an object is a JSON object. The oracle reads the JSON the same way (a `url` that is a Link object
 * is not an IRI to ExtractURL).
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
  typesOf,
  valueOrId,
  type Audience,
  type Json,
  type Picture,
  type PostVerdict,
  type ProfileField,
  type ProfileImage,
  type ProfileVerdict,
} from './common.js';

/** internal/ap/interfaces.go `IsStatusable` (Audio is not among them). */
export const STATUSABLE_TYPES = [
  'Article',
  'Document',
  'Image',
  'Video',
  'Note',
  'Page',
  'Event',
  'Place',
  'Profile',
  'Question',
];
/** internal/ap/interfaces.go `IsAccountable`. */
export const ACCOUNTABLE_TYPES = ['Person', 'Application', 'Organization', 'Service', 'Group'];
/** Attachmentable is fulfilled by Audio, Document, Image, Video (interfaces.go). */
const ATTACHMENTABLE_TYPES = ['Audio', 'Document', 'Image', 'Video'];

export interface GoToSocialOptions {
  /** federatingdb/create.go `shouldAcceptStatusable`: the receiver follows the sender. Default true. */
  readonly receiverFollowsSender?: boolean;
  /** The HTTP-signature owner (the requesting account); default the activity's actor. */
  readonly signer?: string;
  /** The author's followers collection as stored from the actor; default `<actor>/followers`. */
  readonly followersCollection?: string;
}

/** A JSON string go-fed would parse as an IRI. */
function iri(value: unknown): string | undefined {
  return typeof value === 'string' && parseUrl(value) !== null ? value : undefined;
}

/** extract.go `ExtractURL`: the first entry of `url` that is an IRI (a Link object is skipped). */
function extractUrl(value: unknown): string | undefined {
  for (const entry of asArray(value)) {
    const found = iri(entry);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** extract.go ExtractName/ExtractSummary/ExtractContent: the first string value. */
function firstString(value: unknown): string {
  for (const entry of asArray(value)) if (typeof entry === 'string') return entry;
  return '';
}

/**
 * text.NormalizeHashtag, approximately: NFC, letters, marks, digits and `_` only, not only underscores,
 * at most 100 characters (GoToSocial's maximum hashtag length). Lower-cased by ExtractHashtags.
 */
export function normalizeHashtag(name: string): string | null {
  const bare = name.replace(/^#/, '').normalize('NFC');
  if (bare === '' || bare.length > 100) return null;
  if (!/^[\p{L}\p{M}\p{N}_]+$/u.test(bare) || /^_+$/.test(bare)) return null;
  return bare.toLowerCase();
}

/** What GoToSocial does with an incoming `Create`. */
export function showsPost(activity: Json, options: GoToSocialOptions = {}): PostVerdict {
  const notes: string[] = [];
  if (activity.type !== 'Create') return refused([`not a Create (${String(activity.type)})`]);
  const actor = valueOrId(asArray(activity.actor)[0]);
  if (actor === undefined) return refused(['no actor']);
  const object = asArray(activity.object)[0];
  if (!isJson(object)) return refused(['object given by reference: dereferenced later (not modelled)']);
  // federatingdb/create.go `activityCreate` with ap.ExtractStatusables / ToStatusable.
  const type = typesOf(object)[0];
  if (type === undefined || !STATUSABLE_TYPES.includes(type)) {
    return refused([`object type ${String(type)} is not statusable (unhandled CREATE type)`]);
  }
  // federatingdb/create.go `isSender`: attributedTo must be the requesting account, else it is treated as
  // forwarded and fetched again by its id.
  const attributedTo = valueOrId(asArray(object.attributedTo)[0]);
  if (attributedTo === undefined) return refused(['no attributedTo (getASAttributedToAccount)']);
  if (attributedTo !== (options.signer ?? actor)) {
    return refused(['attributedTo is not the sender: treated as forwarded, fetched by id (not modelled)']);
  }
  if (!(options.receiverFollowsSender ?? true)) {
    return refused(['the receiving account does not follow the sender and is not mentioned']);
  }
  // astointernal.go ASStatusToStatus: an id.
  const uri = iri(object.id);
  if (uri === undefined) return refused(['unusable id']);
  // extract.go `ExtractVisibility`: from the object's to/cc only; neither → malformed.
  const to = asArray(object.to).map(valueOrId);
  const cc = asArray(object.cc).map(valueOrId);
  if (to.filter(Boolean).length === 0 && cc.filter(Boolean).length === 0) {
    return refused(['malformed: the object has neither `to` nor `cc` ("message wasn\'t TO or CC anyone")']);
  }
  const followers = (options.followersCollection ?? `${actor}/followers`).toLowerCase();
  let audience: Audience = 'direct';
  if (to.some((u) => u?.toLowerCase() === followers)) audience = 'followers';
  if (cc.includes(AS_PUBLIC)) audience = 'unlisted';
  if (to.includes(AS_PUBLIC)) audience = 'public';
  // extract.go `ExtractAttachments`: Attachmentable items with an IRI url; description = summary, else name.
  const pictures: Picture[] = [];
  for (const item of asArray(object.attachment)) {
    if (!isJson(item) || !ATTACHMENTABLE_TYPES.includes(typesOf(item)[0] ?? '')) {
      notes.push(
        `attachment skipped: incorrect attachment type ${isJson(item) ? String(item.type) : typeof item}`,
      );
      continue;
    }
    const url = extractUrl(item.url);
    if (url === undefined) {
      notes.push('attachment skipped: no IRI url');
      continue;
    }
    const alt = firstString(item.summary) || firstString(item.name) || null;
    const mediaType = str(item.mediaType) ?? null;
    pictures.push({ url, alt, mediaType, kind: kindOf(mediaType) });
  }
  // extract.go `ExtractHashtags`: type Hashtag with a name (no href needed), normalised, lower-cased.
  const hashtags: string[] = [];
  for (const tag of asArray(object.tag)) {
    if (!isJson(tag) || typesOf(tag)[0] !== 'Hashtag') continue;
    const name = firstString(tag.name);
    const normalized = name === '' ? null : normalizeHashtag(name);
    if (normalized === null) {
      notes.push(`Hashtag ${name} dropped: empty or not normalisable`);
      continue;
    }
    if (!hashtags.includes(normalized)) hashtags.push(normalized);
  }
  // astointernal.go: content warning is summary, else name.
  const summary = firstString(object.summary);
  const name = firstString(object.name);
  const contentWarning = summary || name || null;
  if (!summary && name) notes.push('`name` becomes the content warning (no summary)');
  const url = extractUrl(object.url);
  if (object.url !== undefined && url === undefined)
    notes.push('url has no IRI entry: the id is the permalink');
  const sensitive = asArray(object.sensitive).find((v) => typeof v === 'boolean') === true;
  const post = {
    text: firstString(object.content),
    permalink: url ?? uri,
    uri,
    picture: firstShownMedia(pictures),
    pictures,
    sensitive,
    contentWarning,
    hashtags,
    audience,
  };
  if (audience === 'direct') return { shown: false, reasons: ['a direct message'], notes, post };
  return { shown: true, reasons: [], notes, post };
}

/** extract.go ExtractIconURI / ExtractImageURI: the first entry that is an Image with an IRI url. */
function imageOf(value: unknown, key: string, notes: string[]): ProfileImage | null {
  for (const entry of asArray(value)) {
    if (!isJson(entry) || typesOf(entry)[0] !== 'Image') continue;
    const url = extractUrl(entry.url);
    // ExtractIconURI returns only the URL: no description is read for avatars or headers.
    if (url !== undefined) return { url, alt: null };
  }
  if (value !== undefined) notes.push(`${key}: no Image with an IRI url, skipped`);
  return null;
}

/** PEM types extract.go `ExtractPublicKey` parses. */
function pemType(pem: string): string | undefined {
  return /-----BEGIN ([A-Z ]+)-----/.exec(pem)?.[1];
}

/** What GoToSocial stores of an actor (astointernal.go `ASRepresentationToAccount`). */
export function showsProfile(actor: Json): ProfileVerdict {
  const reasons: string[] = [];
  const notes: string[] = [];
  const id = iri(actor.id);
  if (id === undefined) reasons.push('unusable id');
  const type = typesOf(actor)[0];
  if (type === undefined || !ACCOUNTABLE_TYPES.includes(type))
    reasons.push(`unusable actor type ${String(type)}`);
  const username = firstString(actor.preferredUsername);
  if (username === '') reasons.push('missing username (preferredUsername)');
  // ExtractPublicKey: an embedded key with id, owner and a PUBLIC KEY / RSA PUBLIC KEY PEM; owner == id.
  const key = asArray(actor.publicKey).find(
    (k): k is Json =>
      isJson(k) &&
      iri(k.id) !== undefined &&
      iri(k.owner) !== undefined &&
      typeof k.publicKeyPem === 'string',
  );
  if (key === undefined) reasons.push("couldn't find public key");
  else {
    const pem = pemType(String(key.publicKeyPem));
    if (pem !== 'PUBLIC KEY' && pem !== 'RSA PUBLIC KEY')
      reasons.push(`unparseable public key PEM (${String(pem)})`);
    if (key.owner !== id) reasons.push('public key not owned by account');
  }
  if (reasons.length > 0) return { accepted: false, reasons, notes };
  // extract.go ExtractFields: schema PropertyValue, exactly one non-empty string name, non-empty string value.
  const fields: ProfileField[] = [];
  for (const item of asArray(actor.attachment)) {
    if (!isJson(item) || typesOf(item)[0] !== 'PropertyValue') continue;
    const names = asArray(item.name);
    const name = names.length === 1 && typeof names[0] === 'string' ? names[0] : '';
    const value = typeof item.value === 'string' ? item.value : '';
    if (name === '' || value === '') {
      notes.push('PropertyValue without one non-empty name and a non-empty value dropped');
      continue;
    }
    fields.push({ name, value });
  }
  const domain = hostOf(id) ?? '';
  // astointernal.go: featured is trusted only on the account's domain (or a subdomain).
  const featured = iri(actor.featured);
  const featuredHost = hostOf(featured);
  const pinned =
    featured !== undefined &&
    featuredHost !== null &&
    (featuredHost === domain || featuredHost.endsWith(`.${domain}`))
      ? featured
      : null;
  if (featured !== undefined && pinned === null) notes.push('featured on another domain: ignored');
  if (actor.indexable !== undefined) notes.push('indexable: GoToSocial does not read it');
  return {
    accepted: true,
    reasons: [],
    notes,
    profile: {
      displayName: firstString(actor.name) || username,
      bioHtml: firstString(actor.summary),
      avatar: imageOf(actor.icon, 'icon', notes),
      header: imageOf(actor.image, 'image', notes),
      fields,
      pinnedCollection: pinned,
      indexable: null,
      // GetDiscoverable: default false; GetManuallyApprovesFollowers: default true.
      discoverable: actor.discoverable === true,
      locked: actor.manuallyApprovesFollowers === undefined ? true : actor.manuallyApprovesFollowers === true,
      url: extractUrl(actor.url) ?? id ?? null,
    },
  };
}
