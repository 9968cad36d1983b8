// Rule: an activity or an Accept is delivered signed with its author's key, exactly as it was stored; a profile's
// Update is the actor as it is when it is sent, signed once per change.
import type { Activity } from '../../domain/activity.js';
import { profileUpdateDocument } from '../../domain/actor-document.js';
import type { ActivityDelivery, DocumentDelivery, ProfileUpdateDelivery } from '../../domain/jobs.js';
import type { Urls } from '../../domain/activity-streams.js';
import { isActive, profileOf, type Username } from '../../domain/user.js';
import type { ActivityLog } from '../ports/activity-log.js';
import type { ActivitySigner, JsonLdDocument, SigningKey } from '../ports/activity-signer.js';
import type { Clock } from '../ports/clock.js';
import type { BoundedCache, CacheFactory } from '../ports/bounded-cache.js';
import type { DeliveryOutcome } from '../ports/delivery-outcome.js';
import type { FederationClient } from '../ports/federation-client.js';
import type { UserRepository } from '../ports/user-repository.js';
import type { ActorViews } from './actor-views.js';

/** Entries kept of each cache: an activity is delivered to every follower inbox in a burst, then rarely again. */
const CACHED = 256;

/** Keeps `value` under `key` and gives it back. */
function remember<K, V>(cache: BoundedCache<K, V>, key: K, value: V): V {
  cache.set(key, value);
  return value;
}

/**
 * Sends the deliveries of the job queue: activities of the log and Accepts of Follows. An activity goes to hundreds
 * of inboxes at once, so the log entry and the publisher's key are read once and kept (neither ever changes).
 */
export class Deliveries {
  /** Reads under way or done (the promise: concurrent deliveries of one activity share one read). */
  private readonly activities: BoundedCache<number, Promise<Activity | null>>;
  private readonly keys: BoundedCache<Username, Promise<SigningKey | null>>;
  /** Signed profile Updates by `<username> <version>`: one change goes to every follower inbox, signed once. */
  private readonly profileUpdates: BoundedCache<string, Promise<JsonLdDocument>>;

  constructor(
    private readonly log: ActivityLog,
    private readonly users: UserRepository,
    private readonly client: FederationClient,
    private readonly urls: Urls,
    caches: CacheFactory,
    private readonly actorViews: ActorViews,
    private readonly signer: ActivitySigner,
    private readonly clock: Clock,
  ) {
    this.activities = caches.create({ max: CACHED });
    this.keys = caches.create({ max: CACHED });
    this.profileUpdates = caches.create({ max: CACHED });
  }

  /** The activity at `idx`, as signed when it was published, to one inbox. */
  async activity({ idx, inbox }: ActivityDelivery): Promise<DeliveryOutcome> {
    const activity = await (this.activities.get(idx) ?? remember(this.activities, idx, this.load(idx)));
    if (!activity) return { kind: 'refused', reason: `no activity ${idx} in the log` };
    return this.send(activity.actor, inbox, activity.document);
  }

  /** A document (an Accept) to one inbox. */
  async document({ signer, inbox, document }: DocumentDelivery): Promise<DeliveryOutcome> {
    return this.send(signer, inbox, document);
  }

  /**
   * The user's profile as it now is, as an `Update` of the actor, to one inbox. A job still waiting when the profile
   * changed again sends the newer one: the receiver needs only the latest. An account no longer active sends none.
   */
  async profileUpdate({ username, inbox }: ProfileUpdateDelivery): Promise<DeliveryOutcome> {
    const user = await this.users.findByUsername(username);
    if (!user || !isActive(user)) return { kind: 'refused', reason: `no active user ${username}` };
    const key = { privateKeyPem: user.privateKeyPem, keyId: this.urls.keyId(username) };
    const version = `${username} ${user.profileVersion}`;
    let signed = this.profileUpdates.get(version);
    if (!signed) {
      signed = this.actorViews
        .of(profileOf(user))
        .then((view) => this.signer.sign(profileUpdateDocument(view, this.urls), key, this.clock.now()));
      signed.catch(() => this.profileUpdates.delete(version));
      this.profileUpdates.set(version, signed);
    }
    return this.client.deliver(inbox, await signed, key);
  }

  private async send(
    signer: Username,
    inbox: string,
    document: Record<string, unknown>,
  ): Promise<DeliveryOutcome> {
    const key = await (this.keys.get(signer) ?? remember(this.keys, signer, this.keyOf(signer)));
    if (!key) return { kind: 'refused', reason: `no user ${signer} to sign with` };
    return this.client.deliver(inbox, document, key);
  }

  /** Reads an activity; a failed read is not kept, so the next delivery asks the store again. */
  private load(idx: number): Promise<Activity | null> {
    const loading = this.log.get(idx);
    loading.then(
      (activity) => activity ?? this.activities.delete(idx),
      () => this.activities.delete(idx),
    );
    return loading;
  }

  private keyOf(username: Username): Promise<SigningKey | null> {
    const loading = this.users
      .findByUsername(username)
      .then((user) => user && { privateKeyPem: user.privateKeyPem, keyId: this.urls.keyId(user.username) });
    loading.then(
      (key) => key ?? this.keys.delete(username),
      () => this.keys.delete(username),
    );
    return loading;
  }
}
