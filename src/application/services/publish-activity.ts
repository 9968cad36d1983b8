// Rule: every registry change is published as an activity signed by its owner, appended to the one gap-free log
// together with the change and the deliveries to the owner's followers; nothing of it is written unless all is. A
// change to an asset the owner's profile shows (its avatar, header or a pin) changes the profile in the same write
// (a picture that is no longer one, or a deleted pin, leaves it), and that profile's Update is delivered too.
import { activityTypeOf, fitsInLog, type Activity, type ActivityType } from '../../domain/activity.js';
import { activityDocument } from '../../domain/activity-document.js';
import type { Urls } from '../../domain/activity-streams.js';
import { editedAsset, type Asset, type AssetEdit } from '../../domain/asset.js';
import { err, ok, type Result } from '../../domain/result.js';
import { profileTouchedBy } from '../../domain/profile.js';
import type { User } from '../../domain/user.js';
import type { ActivityLog, AssetChange } from '../ports/activity-log.js';
import type { ActivitySigner } from '../ports/activity-signer.js';
import type { Clock } from '../ports/clock.js';
import type { LogCoverage } from '../ports/log-coverage.js';
import type { UserRepository } from '../ports/user-repository.js';
import type { WorkSignal } from '../ports/work-signal.js';

const MAX_ATTEMPTS = 100;

/**
 * Why an activity was not appended: its asset change no longer fits the stored asset, or its document would make a
 * log entry larger than an entry bundle can hold (API.md §8).
 */
export type PublishRefusal = 'asset_exists' | 'asset_gone' | 'asset_changed' | 'entry_too_large';

/** How often a profile changed under the append is read again before giving up (another writer keeps changing it). */
const MAX_PROFILE_READS = 10;

export interface Published {
  readonly activity: Activity;
  /** The asset as the activity left it. */
  readonly asset: Asset;
}

/** What the store applies for an edit published at `at`, with the publisher's profile when the asset touches it. */
function changeOf(edit: AssetEdit, asset: Asset, at: Date, publisher: User): AssetChange {
  const touched = profileTouchedBy(publisher.profile, asset);
  const profile = touched
    ? {
        profile: {
          username: publisher.username,
          expectedVersion: publisher.profileVersion,
          profile: touched,
          move: publisher.move,
        },
      }
    : {};
  switch (edit.kind) {
    case 'create':
      return { kind: 'create', asset, ...profile };
    case 'update':
      return { kind: 'update', asset, expectedUpdatedAt: edit.current.updatedAt, ...profile };
    case 'delete':
      return { kind: 'delete', name: asset.name, deletedAt: at, ...profile };
  }
}

/** The activity about `asset` at `idx`, its document signed with the publisher's key at the moment it is published. */
export async function signedActivity(
  input: { idx: number; type: ActivityType; asset: Asset; published: Date; publisher: User },
  signer: ActivitySigner,
  urls: Urls,
): Promise<Activity> {
  const { idx, type, asset, published, publisher } = input;
  const key = { privateKeyPem: publisher.privateKeyPem, keyId: urls.keyId(publisher.username) };
  const document = await signer.sign(activityDocument({ idx, type, asset, published, urls }), key, published);
  return { idx, type, actor: publisher.username, object: asset.name, published, document };
}

/**
 * The idx is part of the signed document, so the activity is built and signed for the log's next idx and appended
 * only if that idx is still free; another process that got there first makes us rebuild at the new idx. Within one
 * process appends take turns, so that race only happens between processes. An appended activity is answered once
 * a signed checkpoint covers it; the signing happens outside the turns, so one checkpoint covers every append that
 * waited for it.
 */
export class PublishActivity {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly log: ActivityLog,
    private readonly users: UserRepository,
    private readonly signer: ActivitySigner,
    private readonly clock: Clock,
    private readonly urls: Urls,
    /** Woken after an append, which may have queued deliveries. */
    private readonly signal: WorkSignal,
    /** The transparency log: a write is refused while it cannot sign, and answered once it is covered. */
    private readonly coverage: LogCoverage,
  ) {}

  async execute(input: { publisher: User; edit: AssetEdit }): Promise<Result<Published, PublishRefusal>> {
    this.coverage.refuseUnlessConsistent();
    const run = this.turn.then(() => this.append(input.publisher, input.edit));
    this.turn = run.catch(() => undefined);
    const published = await run;
    if (published.ok) await this.coverage.cover(published.value.activity.idx + 1);
    return published;
  }

  private async append(given: User, edit: AssetEdit): Promise<Result<Published, PublishRefusal>> {
    const type = activityTypeOf(edit.kind);
    let publisher = given;
    let profileReads = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const idx = await this.log.nextIdx();
      const published = this.clock.now();
      const asset = editedAsset(edit, published);
      // A Delete shows the asset as it was (its Tombstone carries the deletion time).
      const shown = edit.kind === 'delete' ? edit.current : asset;
      const activity = await signedActivity(
        { idx, type, asset: shown, published, publisher },
        this.signer,
        this.urls,
      );
      // Checked before anything is stored: an entry a bundle cannot hold could never be served or proven.
      if (!fitsInLog(activity.document)) return err('entry_too_large');
      const outcome = await this.log.append(activity, changeOf(edit, asset, published, publisher));
      if (outcome === 'appended') {
        this.signal.jobsQueued();
        return ok({ activity, asset });
      }
      if (outcome === 'profile_changed') {
        // The owner changed their profile meanwhile: the change is worked out again on the profile as it now is.
        const fresh =
          profileReads++ < MAX_PROFILE_READS ? await this.users.findByUsername(publisher.username) : null;
        if (!fresh)
          throw new Error(`the profile of ${publisher.username} kept changing under an asset write`);
        publisher = fresh;
        continue;
      }
      if (outcome !== 'idx_taken') return err(outcome);
    }
    throw new Error(`no free activity idx after ${MAX_ATTEMPTS} attempts`);
  }
}
