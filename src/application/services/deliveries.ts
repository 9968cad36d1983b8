// Rule: an activity or an Accept is delivered signed with its author's key, exactly as it was stored.
import type { ActivityDelivery, DocumentDelivery } from '../../domain/jobs.js';
import type { Urls } from '../../domain/activity-streams.js';
import type { Username } from '../../domain/user.js';
import type { ActivityLog } from '../ports/activity-log.js';
import type { SigningKey } from '../ports/activity-signer.js';
import type { DeliveryOutcome } from '../ports/delivery-outcome.js';
import type { FederationClient } from '../ports/federation-client.js';
import type { UserRepository } from '../ports/user-repository.js';

/** Sends the deliveries of the job queue: activities of the log and Accepts of Follows. */
export class Deliveries {
  constructor(
    private readonly log: ActivityLog,
    private readonly users: UserRepository,
    private readonly client: FederationClient,
    private readonly urls: Urls,
  ) {}

  /** The activity at `idx`, as signed when it was published, to one inbox. */
  async activity({ idx, inbox }: ActivityDelivery): Promise<DeliveryOutcome> {
    const activity = await this.log.get(idx);
    if (!activity) return { kind: 'refused', reason: `no activity ${idx} in the log` };
    return this.send(activity.actor, inbox, activity.document);
  }

  /** A document (an Accept) to one inbox. */
  async document({ signer, inbox, document }: DocumentDelivery): Promise<DeliveryOutcome> {
    return this.send(signer, inbox, document);
  }

  private async send(
    signer: Username,
    inbox: string,
    document: Record<string, unknown>,
  ): Promise<DeliveryOutcome> {
    const key = await this.keyOf(signer);
    if (!key) return { kind: 'refused', reason: `no user ${signer} to sign with` };
    return this.client.deliver(inbox, document, key);
  }

  private async keyOf(username: Username): Promise<SigningKey | null> {
    const user = await this.users.findByUsername(username);
    return user && { privateKeyPem: user.privateKeyPem, keyId: this.urls.keyId(user.username) };
  }
}
