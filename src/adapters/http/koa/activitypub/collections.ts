import type { Activity } from '../../../../domain/activity.js';
import type { Page } from '../../../../domain/page.js';
import { AS_CONTEXT, SECURITY_CONTEXT } from '../../../../domain/activity-streams.js';
import type { Follower } from '../../../../domain/follower.js';

/** A paged collection's root: a count and links to its first (newest) and last (oldest) pages. */
export function orderedCollection(id: string, totalItems: number): Record<string, unknown> {
  return {
    '@context': AS_CONTEXT,
    id,
    type: 'OrderedCollection',
    totalItems,
    first: `${id}?page=true`,
    last: `${id}?page=true&after=-1`,
  };
}

interface PageInput<T> {
  collectionId: string;
  pageId: string;
  page: Page<T>;
  /** The URL of the page with this cursor (`before` or `after`). */
  link: (cursor: Record<string, string>) => string;
}

function collectionPage<T>(
  input: PageInput<T>,
  context: unknown,
  item: (value: T) => unknown,
): Record<string, unknown> {
  const { collectionId, pageId, page, link } = input;
  return {
    '@context': context,
    id: pageId,
    type: 'OrderedCollectionPage',
    partOf: collectionId,
    totalItems: page.total,
    orderedItems: page.items.map(item),
    ...(page.nextCursor === null ? {} : { next: link({ before: String(page.nextCursor) }) }),
    ...(page.prevCursor === null ? {} : { prev: link({ after: String(page.prevCursor) }) }),
  };
}

/**
 * One outbox page, newest first, with each activity inline exactly as it was signed — its own `@context`
 * included, so a verifier can take an item out of the page and check its signature.
 */
export const outboxPage = (input: PageInput<Activity>): Record<string, unknown> =>
  collectionPage(input, [AS_CONTEXT, SECURITY_CONTEXT], (activity) => activity.document);

/** One page of a followers collection: the followers' actor ids, newest follow first. */
export const followersPage = (input: PageInput<Follower>): Record<string, unknown> =>
  collectionPage(input, AS_CONTEXT, (follower) => follower.actor);

/** A collection whose members are not published (following): just the count, as GoToSocial does. */
export function countedCollection(id: string, totalItems: number): Record<string, unknown> {
  return { '@context': AS_CONTEXT, id, type: 'OrderedCollection', totalItems };
}
