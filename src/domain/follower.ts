import type { Username } from './user.js';

/** A remote actor following a local user, with where to deliver to it. */
export interface Follower {
  /** The local user followed. */
  readonly username: Username;
  /** The follower's actor id. */
  readonly actor: string;
  readonly inbox: string;
  /** The follower's server's shared inbox, when it offers one: one delivery there serves all its followers. */
  readonly sharedInbox: string | null;
  /** The id of the Follow activity, so that an Undo naming only that id finds it. */
  readonly followId: string | null;
  readonly followedAt: Date;
}

/** Where an activity goes for this follower: the shared inbox when offered, else its own. */
export const deliveryInbox = (follower: Pick<Follower, 'inbox' | 'sharedInbox'>): string =>
  follower.sharedInbox ?? follower.inbox;
