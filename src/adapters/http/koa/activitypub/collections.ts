import type { Activity, Page } from '../../../../domain/activity.js';
import { AS_CONTEXT, SECURITY_CONTEXT } from '../../../../domain/activity-streams.js';

/** The outbox root: a count and links to its first (newest) and last (oldest) pages. */
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

/**
 * One outbox page, newest first, with each activity inline exactly as it was signed — its own `@context`
 * included, so a verifier can take an item out of the page and check its signature.
 */
export function outboxPage(input: {
  collectionId: string;
  pageId: string;
  page: Page<Activity>;
  /** The URL of the page with this cursor (`before` or `after`). */
  link: (cursor: Record<string, string>) => string;
}): Record<string, unknown> {
  const { collectionId, pageId, page, link } = input;
  return {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT],
    id: pageId,
    type: 'OrderedCollectionPage',
    partOf: collectionId,
    totalItems: page.total,
    orderedItems: page.items.map((activity) => activity.document),
    ...(page.nextCursor === null ? {} : { next: link({ before: String(page.nextCursor) }) }),
    ...(page.prevCursor === null ? {} : { prev: link({ after: String(page.prevCursor) }) }),
  };
}

/** A collection whose members are not published (followers, following): just the count, as GoToSocial does. */
export function countedCollection(id: string, totalItems: number): Record<string, unknown> {
  return { '@context': AS_CONTEXT, id, type: 'OrderedCollection', totalItems };
}
