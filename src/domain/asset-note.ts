// An asset as a fediverse post people can see (API.md §4.1): a Note with an HTML caption, the file as its one
// attachment when every peer can show it, the audience on the object, hashtags with links, and the asset's page as
// its url. Mastodon, Pixelfed, GoToSocial, Misskey and Akkoma all show this shape as a post with its picture.
import { ALT_TEXT_MAX_CHARACTERS, hasMediaAttachment, type Asset } from './asset.js';
import { PUBLIC_AUDIENCE, type Urls } from './activity-streams.js';
import { escapeHtml, linkTo, paragraphsHtml } from './html-text.js';
import { sha256DigestMultibase } from './multibase.js';

/** Links a post makes to other sites: no endorsement, no access to this page from theirs. */
const EXTERNAL = 'nofollow noopener noreferrer';

/** What the picture shows, for those who cannot see it: the alt text, else the description, else the name. */
export function altTextOf(asset: Asset): string {
  if (asset.altText !== null) return asset.altText;
  const description = [...asset.description.trim()];
  return description.length > 0 ? description.slice(0, ALT_TEXT_MAX_CHARACTERS).join('') : asset.name;
}

/** The hashtag of one tag: its page here, and its name as every peer reads it. */
export const hashtagOf = (tag: string, urls: Urls) => ({
  type: 'Hashtag',
  href: urls.tag(tag),
  name: `#${tag}`,
});

/**
 * The caption: the name in bold, the description (escaped; paragraphs and line breaks kept), one link per tag, and
 * — when the file is not attached — a link to it. Nothing user-supplied is ever left unescaped.
 */
export function noteContent(asset: Asset, urls: Urls): string {
  const tags = asset.tags.map(
    (tag) =>
      `<a href="${escapeHtml(urls.tag(tag))}" class="mention hashtag" rel="tag">#<span>${escapeHtml(tag)}</span></a>`,
  );
  return [
    `<p><strong>${escapeHtml(asset.name)}</strong></p>`,
    paragraphsHtml(asset.description),
    tags.length > 0 ? `<p>${tags.join(' ')}</p>` : '',
    asset.url !== null && !hasMediaAttachment(asset) ? `<p>${linkTo(asset.url, EXTERNAL)}</p>` : '',
  ].join('');
}

/** The ActivityStreams object of a live asset: the AP form of `/assets/{name}`, and the object of a Create or Update. */
export function assetNote(asset: Asset, urls: Urls): Record<string, unknown> {
  const id = urls.asset(asset.name);
  return {
    id,
    type: 'Note',
    attributedTo: urls.actor(asset.owner),
    to: [PUBLIC_AUDIENCE],
    cc: [urls.followers(asset.owner)],
    url: id,
    content: noteContent(asset, urls),
    sensitive: asset.sensitive,
    ...(hasMediaAttachment(asset)
      ? {
          attachment: [
            {
              type: 'Document',
              mediaType: asset.mediaType,
              url: asset.url,
              name: altTextOf(asset),
              digestMultibase: sha256DigestMultibase(asset.contentHash),
            },
          ],
        }
      : {}),
    tag: asset.tags.map((tag) => hashtagOf(tag, urls)),
    published: asset.createdAt.toISOString(),
    ...(asset.updatedAt.getTime() !== asset.createdAt.getTime()
      ? { updated: asset.updatedAt.toISOString() }
      : {}),
  };
}
