import type { ClientSession, Filter } from 'mongodb';
import type { ProfileChange } from '../../../application/ports/user-repository.js';
import { moveJob, profileUpdateJob } from '../../../domain/jobs.js';
import type { Username } from '../../../domain/user.js';
import { storedProfile } from '../stored-profile.js';
import { deliveryInboxesIn } from './mongo-delivery-inboxes.js';
import { jobDocument } from './mongo-job-document.js';
import type { StoredUserDocument } from './codecs/user-documents.js';
import type { MongoCollections } from './mongo-schema.js';

/**
 * The live user at the version a change was made from. A document written before profiles existed has no
 * `profileVersion`: it is at 0.
 */
const atVersion = (change: ProfileChange): Filter<StoredUserDocument> => ({
  _id: change.username,
  deletedAt: null,
  ...(change.expectedVersion === 0
    ? { $or: [{ profileVersion: 0 }, { profileVersion: { $exists: false } }] }
    : { profileVersion: change.expectedVersion }),
});

/**
 * Writes the profile and its next version inside `session`'s transaction, only while the user is live and at the
 * expected version: the compare-and-set of UserRepository.updateProfile. A concurrent change of the same user
 * conflicts on its document (WriteConflict: the transaction is run again and finds the version moved). Answers what
 * became of it; anything but 'updated' wrote nothing, and the caller refuses the transaction.
 */
export async function writeProfileIn(
  { users }: MongoCollections,
  change: ProfileChange,
  session: ClientSession,
): Promise<'updated' | 'conflict' | 'not_found'> {
  const updated = await users.updateOne(
    atVersion(change),
    {
      $set: {
        profile: storedProfile(change.profile, change.move),
        profileVersion: change.expectedVersion + 1,
      },
    },
    { session },
  );
  if (updated.matchedCount === 1) return 'updated';
  const live = await users.findOne(
    { _id: change.username, deletedAt: null },
    { session, projection: { _id: 1 } },
  );
  return live ? 'conflict' : 'not_found';
}

/**
 * Queues, inside `session`'s transaction, the Update of `username`'s profile for every distinct follower inbox, due
 * at `now`; a profile_update still waiting for an inbox (its key, see profileUpdateJob) is replaced in place — due
 * now, no attempts, lease released — rather than joined by another. Three operations however many inboxes: the keys
 * waiting (through `jobs_pending_by_replace_key`), one update of those, one insert of the rest. With `moveDocument`
 * (a move), one Move per the same inbox is inserted after them: each inbox gets the Update before the Move.
 */
export async function queueProfileUpdatesIn(
  { followers, jobs }: MongoCollections,
  username: Username,
  now: Date,
  session: ClientSession,
  moveDocument?: Record<string, unknown>,
): Promise<void> {
  const inboxes = await deliveryInboxesIn(followers, username, session);
  if (inboxes.length === 0) return;
  const docs = inboxes.map((inbox) => jobDocument(profileUpdateJob(username, inbox), now));
  // Both conditions of the index's partial filter spelled out, so that the planner can use it (see pendingHolding).
  const holding = (keys: string[]) => ({
    state: 'pending' as const,
    replaceKey: { $in: keys, $exists: true },
  });
  const waiting = await jobs
    .find(holding(docs.map((d) => d.replaceKey ?? '')), { session, projection: { replaceKey: 1 } })
    .toArray();
  const held = new Set(waiting.map((job) => job.replaceKey));
  if (held.size > 0)
    // A key names the user and the inbox, so kind, payload and lane are the waiting job's already.
    await jobs.updateMany(
      holding([...held].filter((key): key is string => key !== undefined)),
      {
        $set: { attempts: 0, queuedAt: now, runAt: now, leaseId: null, leaseUntil: null, lastError: null },
      },
      { session },
    );
  const fresh = docs.filter((doc) => !held.has(doc.replaceKey));
  if (fresh.length > 0) await jobs.insertMany(fresh, { session });
  if (moveDocument)
    await jobs.insertMany(
      inboxes.map((inbox) => jobDocument(moveJob(username, inbox, moveDocument), now)),
      { session },
    );
}
