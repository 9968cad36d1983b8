import type { ProfileChange } from '../../../application/ports/user-repository.js';
import { profileWriteJobs } from '../../../domain/jobs.js';
import { profileJson } from '../stored-profile.js';
import { deliveryInboxes } from './postgres-delivery-inboxes.js';
import { insertJobs } from './postgres-job-insert.js';
import type { Queryable } from './postgres-sql.js';

/**
 * The one way a profile is written (UserRepository.updateProfile, and an append that takes a picture or a pin off a
 * profile), inside the caller's transaction: whether the change may be written — the user's row locked, so that
 * the version read is the one the write replaces — and, only after it said null, the profile at the next version
 * with its Update queued for every distinct follower inbox, each replacing the one still waiting for that inbox
 * (the key of profileUpdateJob, through jobs_pending_by_replace_key).
 */
export async function profileRefusal(
  tx: Queryable,
  change: ProfileChange,
): Promise<'not_found' | 'conflict' | null> {
  const [row] = await tx.query<{ profile_version: number }>(
    'SELECT profile_version FROM users WHERE username = $1 AND deleted_at IS NULL FOR UPDATE',
    [change.username],
  );
  if (!row) return 'not_found';
  return row.profile_version === change.expectedVersion ? null : 'conflict';
}

export async function writeProfile(tx: Queryable, change: ProfileChange, now: Date): Promise<void> {
  const { count } = await tx.query(
    `UPDATE users SET profile = $1, profile_version = $2 + 1
     WHERE username = $3 AND deleted_at IS NULL AND profile_version = $2`,
    [profileJson(change.profile, change.move), change.expectedVersion, change.username],
  );
  // The caller checked in this transaction, the row locked: anything else is a bug, and throwing rolls all of it back.
  if (count !== 1) throw new Error(`profile of ${change.username}: not at version ${change.expectedVersion}`);
  const inboxes = await deliveryInboxes(tx, change.username);
  await insertJobs(tx, profileWriteJobs(change.username, inboxes, change.moveDocument), now);
}
