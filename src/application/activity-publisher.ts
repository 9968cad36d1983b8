import type { Activity, ActivityType } from '../domain/activity.js';
import { activityDocument, type Urls } from '../domain/activity-streams.js';
import type { Asset } from '../domain/asset.js';
import { err, ok, type Result } from '../domain/result.js';
import type { User } from '../domain/user.js';
import type { ActivityLog, AssetChange } from './ports/activity-log.js';
import type { ActivitySigner } from './ports/activity-signer.js';
import type { Clock } from './ports/clock.js';

/** What an activity records, built for the moment it is published (that moment is part of what is signed). */
export type ChangeAt = (published: Date) => { readonly asset: Asset; readonly change: AssetChange };

const MAX_ATTEMPTS = 100;

/** Why an activity was not appended: its asset change no longer fits the stored asset. */
export type PublishRefusal = 'asset_exists' | 'asset_gone' | 'asset_changed';

/**
 * Appends a signed activity together with its asset change. The idx is part of the signed document, so the
 * activity is built and signed for the log's next idx and appended only if that idx is still free; another
 * process that got there first makes us rebuild at the new idx. Within one process appends take turns, so
 * that race only happens between processes.
 */
export class ActivityPublisher {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly log: ActivityLog,
    private readonly signer: ActivitySigner,
    private readonly clock: Clock,
    private readonly urls: Urls,
  ) {}

  publish(
    type: ActivityType,
    publisher: User,
    changeAt: ChangeAt,
  ): Promise<Result<Activity, PublishRefusal>> {
    const run = this.turn.then(() => this.append(type, publisher, changeAt));
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async append(
    type: ActivityType,
    publisher: User,
    changeAt: ChangeAt,
  ): Promise<Result<Activity, PublishRefusal>> {
    const key = { privateKeyPem: publisher.privateKeyPem, keyId: this.urls.keyId(publisher.username) };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const idx = await this.log.nextIdx();
      const published = this.clock.now();
      const { asset, change } = changeAt(published);
      const unsigned = activityDocument({ idx, type, asset, published, urls: this.urls });
      const document = await this.signer.sign(unsigned, key, published);
      const activity: Activity = {
        idx,
        type,
        actor: publisher.username,
        object: asset.name,
        published,
        document,
      };
      const outcome = await this.log.append(activity, change);
      if (outcome === 'appended') return ok(activity);
      if (outcome !== 'idx_taken') return err(outcome);
    }
    throw new Error(`no free activity idx after ${MAX_ATTEMPTS} attempts`);
  }
}
