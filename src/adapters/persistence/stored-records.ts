// The records every store keeps, each as one typed value — the domain's type where the domain has one — named by
// the kind of the export file's record it becomes. A store's codecs map each to and from its own stored form (a
// SQLite row, a MongoDB document); transfer-codecs.ts maps each to and from the export file's record, for every
// store at once. So a field is added to a record once per store and once for the file.
import type { NewJob } from '../../application/ports/job-queue.js';
import type { KeyPair } from '../../application/ports/key-pair-generator.js';
import type { RemoteKey } from '../../application/ports/remote-key-store.js';
import type { RendererAttachment } from '../../application/ports/renderer-attachments.js';
import type { TransferRecord, TransferRecordKind } from '../../application/ports/store-transfer.js';
import type { AccountEvent, Passkey, RecoveryCode, TotpFactor } from '../../domain/account-security.js';
import type { Activity } from '../../domain/activity.js';
import type { ActorBlock } from '../../domain/actor-block.js';
import type { Asset } from '../../domain/asset.js';
import type { DomainRule } from '../../domain/domain-rules.js';
import type { FollowRequest } from '../../domain/follow-request.js';
import type { Follower } from '../../domain/follower.js';
import type { IssuedToken, RevocationRecord } from '../../domain/revocation.js';
import type { User, Username } from '../../domain/user.js';

/** The service actor's key pair, with when it was made (stores keep it; the export file does not carry it). */
export interface InstanceKey extends KeyPair {
  readonly createdAt: Date;
}

export interface TotpFactorRecord extends TotpFactor {
  readonly username: Username;
}

export interface RecoveryCodeRecord extends RecoveryCode {
  readonly username: Username;
}

/** A revoked token's record with when it was revoked. */
export interface RevokedToken extends RevocationRecord {
  readonly revokedAt: Date;
}

export interface AttachmentRecord extends RendererAttachment {
  readonly username: Username;
}

/** An activity as the log keeps it: its document as the JSON text that is its transparency log entry. */
export interface LoggedActivity extends Omit<Activity, 'document'> {
  readonly entry: string;
}

/** The activity as the log keeps it, with its document's entry text (activityEntryText). Spelled out: the append's path. */
export const loggedActivity = (activity: Activity, entry: string): LoggedActivity => ({
  idx: activity.idx,
  type: activity.type,
  actor: activity.actor,
  object: activity.object,
  published: activity.published,
  entry,
});

/** The activity a logged one is: its document parsed from its entry. */
export const activityFromLog = (logged: LoggedActivity): Activity => ({
  idx: logged.idx,
  type: logged.type,
  actor: logged.actor,
  object: logged.object,
  published: logged.published,
  document: JSON.parse(logged.entry) as Record<string, unknown>,
});

/** A job as the queue keeps it, without its id and lease (the store's own). */
export interface QueuedJob {
  readonly kind: string;
  /** JSON text, so that the payload comes back as every store gives it back (Dates as strings, `undefined` null). */
  readonly payload: string;
  readonly lane: string | null;
  readonly state: 'pending' | 'abandoned';
  readonly attempts: number;
  readonly queuedAt: Date;
  readonly runAt: Date;
  readonly lastError: string | null;
  /** See NewJob.replaceKey; null when the job has none. */
  readonly replaceKey: string | null;
}

/** A job just queued at `now`: due at once, no attempt made, no error. */
export const queuedJob = (job: NewJob, now: Date): QueuedJob => ({
  kind: job.kind,
  payload: JSON.stringify(job.payload ?? null),
  lane: job.lane ?? null,
  state: 'pending',
  attempts: 0,
  queuedAt: now,
  runAt: now,
  lastError: null,
  replaceKey: job.replaceKey ?? null,
});

/** Every record a store keeps, by the kind of its export record (the transparency log's state is no record). */
export interface StoredRecords {
  readonly user: User;
  readonly totp_factor: TotpFactorRecord;
  readonly recovery_code: RecoveryCodeRecord;
  readonly passkey: Passkey;
  readonly account_event: AccountEvent;
  readonly instance_key: InstanceKey;
  readonly remote_key: RemoteKey;
  readonly issued_token: IssuedToken;
  readonly revocation: RevokedToken;
  readonly attachment: AttachmentRecord;
  readonly asset: Asset;
  readonly activity: LoggedActivity;
  readonly follower: Follower;
  readonly follow_request: FollowRequest;
  readonly actor_block: ActorBlock;
  readonly domain_rule: DomainRule;
  readonly job: QueuedJob;
}

export type StoredKind = keyof StoredRecords;

/** The export file's record of a kind. */
export type TransferRecordOf<K extends TransferRecordKind> = Extract<TransferRecord, { record: K }>;

// Every kind of the export file but the log's state is a stored record, and nothing else is: else this fails.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const EVERY_KIND_IS_STORED: Same<StoredKind, Exclude<TransferRecordKind, 'transparency_log'>> = true;

/**
 * How SQL stores keep IssuedToken.documentClient in one nullable text column (`client_logout`): NULL — not a
 * document client (§2's JSON notice); '' — a document client without a backchannel_logout_uri (no notice); else
 * that URI.
 */
export const clientLogoutColumn = (token: IssuedToken): string | null =>
  token.documentClient === undefined ? null : (token.documentClient.backchannelLogoutUri ?? '');

/** The documentClient member a `client_logout` column value stands for (nothing for NULL). */
export const documentClientOf = (column: string | null): Pick<IssuedToken, 'documentClient'> =>
  column === null ? {} : { documentClient: { backchannelLogoutUri: column === '' ? null : column } };
