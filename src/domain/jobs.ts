import type { RevocationNotice } from './revocation.js';
import type { Username } from './user.js';

/** One activity of the log, delivered to one inbox: a follower's own, or a shared inbox serving several. */
export interface ActivityDelivery {
  readonly idx: number;
  readonly inbox: string;
}

/** A document (an Accept) signed by `signer` when it is sent, delivered once to `inbox`. */
export interface DocumentDelivery {
  readonly signer: Username;
  readonly inbox: string;
  readonly document: Record<string, unknown>;
}

/**
 * The `Update` of a user's profile, delivered to one inbox. It carries no document: the actor as it is when the job
 * runs is sent (so a later change overtakes an earlier one still waiting), signed once per change.
 */
export interface ProfileUpdateDelivery {
  readonly username: Username;
  readonly inbox: string;
}

/** Every kind of outbound work, and what its job carries. A new kind needs a handler: the worker's map is total. */
export interface JobPayloads {
  readonly revocation_notice: RevocationNotice;
  readonly activity_delivery: ActivityDelivery;
  readonly document_delivery: DocumentDelivery;
  readonly profile_update: ProfileUpdateDelivery;
}

export type JobKind = keyof JobPayloads;

const KINDS: Readonly<Record<JobKind, true>> = {
  revocation_notice: true,
  activity_delivery: true,
  document_delivery: true,
  profile_update: true,
};

export const isJobKind = (kind: string): kind is JobKind => Object.hasOwn(KINDS, kind);

/** Every kind of job there is. */
export const JOB_KINDS = Object.keys(KINDS) as readonly JobKind[];

/**
 * A job to queue. `lane` names the destination (its origin): a worker limits how many jobs of one lane run at once
 * and backs a failing lane off as a whole, so a dead host never holds up the others.
 */
export interface JobSpec<K extends JobKind = JobKind> {
  readonly kind: K;
  readonly payload: JobPayloads[K];
  readonly lane: string;
  /** Jobs sharing it wait one at a time: queuing another replaces the one waiting (see JobQueue.enqueue). */
  readonly replaceKey?: string;
}

/** The lane of a destination URL: its origin (scheme, host, port), the unit a host is backed off by. */
export function laneOf(url: string): string {
  return new URL(url).origin;
}

export const revocationNoticeJob = (notice: RevocationNotice): JobSpec<'revocation_notice'> => ({
  kind: 'revocation_notice',
  payload: notice,
  lane: laneOf(notice.l1Server),
});

export const activityDeliveryJob = (idx: number, inbox: string): JobSpec<'activity_delivery'> => ({
  kind: 'activity_delivery',
  payload: { idx, inbox },
  lane: laneOf(inbox),
});

export const documentDeliveryJob = (delivery: DocumentDelivery): JobSpec<'document_delivery'> => ({
  kind: 'document_delivery',
  payload: delivery,
  lane: laneOf(delivery.inbox),
});

/**
 * The Accept of a follow. At most one waits per (local user, follower): a repeated Follow replaces the waiting Accept
 * with its own, so a peer that sends the same Follow a thousand times leaves one Accept queued, not a thousand.
 */
export const acceptJob = (delivery: DocumentDelivery, follower: string): JobSpec<'document_delivery'> => ({
  ...documentDeliveryJob(delivery),
  // Usernames and URLs hold no space, so the parts cannot run into each other.
  replaceKey: `accept ${delivery.signer} ${follower}`,
});

/**
 * A Reject of a Follow (a request turned down, a follower removed, a blocked or moved account's Follow answered). At
 * most one waits per (local user, actor): a flood of Follows from an actor that is answered with Rejects leaves one.
 */
export const rejectJob = (delivery: DocumentDelivery, actor: string): JobSpec<'document_delivery'> => ({
  ...documentDeliveryJob(delivery),
  replaceKey: `reject ${delivery.signer} ${actor}`,
});

/**
 * A profile's `Update` to one follower inbox. At most one waits per (user, inbox): a second change while the first
 * waits replaces it, and the actor as it then is goes out once.
 */
export const profileUpdateJob = (username: Username, inbox: string): JobSpec<'profile_update'> => ({
  kind: 'profile_update',
  payload: { username, inbox },
  lane: laneOf(inbox),
  replaceKey: `profile ${username} ${inbox}`,
});
