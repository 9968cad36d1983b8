import type { IndexDescription } from 'mongodb';

/**
 * The indexes of `followers`: one per (user, actor), a user's by position, an actor's (Undo, Delete); a domain block
 * removes a host's followers by a range of `hostKey`, and allowlist mode counts a user's in scope.
 */
export const FOLLOWER_INDEXES: readonly IndexDescription[] = [
  { key: { username: 1, actor: 1 }, name: 'followers_by_user', unique: true },
  { key: { username: 1, seq: 1 }, name: 'followers_by_user_seq' },
  { key: { actor: 1 }, name: 'followers_by_actor' },
  { key: { hostKey: 1 }, name: 'followers_by_host' },
  { key: { username: 1, hostKey: 1 }, name: 'followers_by_user_host' },
];

/** The indexes of `domain_rules`: one rule per (kind, host); `covering` reads by the host's key. */
export const DOMAIN_RULE_INDEXES: readonly IndexDescription[] = [
  { key: { kind: 1, host: 1 }, name: 'domain_rules_by_host', unique: true },
  { key: { hostKey: 1, kind: 1 }, name: 'domain_rules_by_key' },
];

/**
 * The indexes of `follow_requests` (API.md §4.3): one request per (user, actor), a user's newest first by `seq`, an
 * actor's (Undo, Delete), a domain's by `hostKey` (a domain block), one by its opaque `id`.
 */
export const FOLLOW_REQUEST_INDEXES: readonly IndexDescription[] = [
  { key: { username: 1, actor: 1 }, name: 'follow_requests_by_user', unique: true },
  { key: { username: 1, seq: 1 }, name: 'follow_requests_by_user_seq' },
  { key: { actor: 1 }, name: 'follow_requests_by_actor' },
  { key: { hostKey: 1 }, name: 'follow_requests_by_host' },
  { key: { id: 1 }, name: 'follow_requests_by_id', unique: true },
];

/** The indexes of `actor_blocks` (API.md §4.3): one block per (user, actor); a user's blocks listed by position. */
export const ACTOR_BLOCK_INDEXES: readonly IndexDescription[] = [
  { key: { username: 1, actor: 1 }, name: 'actor_blocks_by_user', unique: true },
  { key: { username: 1, seq: 1 }, name: 'actor_blocks_by_user_seq' },
];
