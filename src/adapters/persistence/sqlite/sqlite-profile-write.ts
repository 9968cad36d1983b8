import type { Database } from 'better-sqlite3';
import type { ProfileChange } from '../../../application/ports/user-repository.js';
import { profileWriteJobs } from '../../../domain/jobs.js';
import { profileJson } from '../stored-profile.js';
import { prepareJobInsert } from './job-insert.js';
import { prepareDeliveryInboxes } from './sqlite-delivery-inboxes.js';

/**
 * The one way a profile is written (UserRepository.updateProfile, and an append that takes a picture or a pin off a
 * profile), to run inside the caller's IMMEDIATE transaction: `refusal` reads whether the change may be written, and
 * `write` — called only after it said null, in the same transaction — stores the profile at the next version and
 * queues its Update for every distinct follower inbox, each replacing the one still waiting for that inbox (the
 * key of profileUpdateJob, through jobs_pending_by_replace_key).
 */
export interface ProfileWrite {
  /** No live user of that name, or its profile version moved; null when the change may be written. */
  refusal(change: ProfileChange): 'not_found' | 'conflict' | null;
  write(change: ProfileChange, now: Date): void;
}

export function prepareProfileWrite(db: Database): ProfileWrite {
  const version = db.prepare<[string], { profile_version: number }>(
    'SELECT profile_version FROM users WHERE username = ? AND deleted_at IS NULL',
  );
  const update = db.prepare<{ username: string; profile: string; expected: number }>(`
    UPDATE users SET profile = @profile, profile_version = @expected + 1
    WHERE username = @username AND deleted_at IS NULL AND profile_version = @expected`);
  const inboxes = prepareDeliveryInboxes(db);
  const insertJob = prepareJobInsert(db);
  return {
    refusal: (change) => {
      const row = version.get(change.username);
      if (!row) return 'not_found';
      return row.profile_version === change.expectedVersion ? null : 'conflict';
    },
    write: (change, now) => {
      const { changes } = update.run({
        username: change.username,
        profile: profileJson(change.profile, change.move),
        expected: change.expectedVersion,
      });
      // The caller checked in this transaction: anything else is a bug, and throwing rolls all of it back.
      if (changes !== 1)
        throw new Error(`profile of ${change.username}: not at version ${change.expectedVersion}`);
      for (const job of profileWriteJobs(change.username, inboxes(change.username), change.moveDocument))
        insertJob(job, now);
    },
  };
}
