/** Why the inbox refused a Follow before storing anything (see ReceiveActivity). */
export const FOLLOW_REFUSALS = ['actor_budget', 'origin_budget', 'lane_full'] as const;
export type FollowRefusal = (typeof FOLLOW_REFUSALS)[number];

/** Told of every Follow the inbox refused for a limit (for metrics); must not throw or block. */
export interface InboxObserver {
  followRefused(reason: FollowRefusal): void;
}

export const IGNORE_INBOX: InboxObserver = { followRefused: () => {} };
