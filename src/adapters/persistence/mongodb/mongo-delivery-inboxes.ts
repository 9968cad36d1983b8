import type { ClientSession } from 'mongodb';
import { deliveryInbox } from '../../../domain/follower.js';
import type { MongoCollections } from './mongo-schema.js';

/**
 * The distinct inboxes one delivery per follower of `username` goes to (a shared inbox serves its whole server), in
 * follow order, read in `session`'s transaction: the one answer every outbox of this store queues by — an activity's
 * deliveries, a profile's Updates, an account's Delete.
 */
export async function deliveryInboxesIn(
  followers: MongoCollections['followers'],
  username: string,
  session: ClientSession,
): Promise<string[]> {
  const targets = await followers
    .find({ username }, { session, sort: { seq: 1 }, projection: { inbox: 1, sharedInbox: 1 } })
    .toArray();
  return [...new Set(targets.map(deliveryInbox))];
}
