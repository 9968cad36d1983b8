import type { L1ServerUrl } from '../../domain/l1-server.js';
import type { Revocation } from '../../domain/revocation.js';
import type { Username } from '../../domain/user.js';

export interface RendererAttachment {
  readonly l1Server: L1ServerUrl;
  readonly attachedAt: Date;
}

/** Which L1 servers a user has attached. */
export interface RendererAttachments {
  /**
   * Records (or refreshes the time of) an attachment, idempotent per user and L1 server — unless the user already
   * has `limit` other L1 servers attached: then nothing is written and the answer is false. The check and the
   * write are one atomic step, so concurrent attaches cannot pass the limit together.
   */
  attach(username: Username, l1Server: L1ServerUrl, at: Date, limit: number): Promise<boolean>;
  /** The user's attachments, most recent first. */
  list(username: Username): Promise<RendererAttachment[]>;
  /**
   * Removes an attachment and records `revocations` (queueing their notices, as RevocationStore.revoke does) in one
   * write, so no crash can leave the attachment gone and its tokens alive. Answers whether there was an attachment
   * and how many revocations were new.
   */
  detach(
    username: Username,
    l1Server: L1ServerUrl,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<{ removed: boolean; revoked: number }>;
}
