// Rule: every registry change is published as an activity signed by its owner, appended to the one gap-free log
// together with the change and the deliveries to the owner's followers; nothing of it is written unless all is.
import { activityTypeOf, type Activity, type ActivityType } from '../../../domain/activity.js';
import { activityDocument } from '../../../domain/activity-document.js';
import type { Urls } from '../../../domain/activity-streams.js';
import { editedAsset, type Asset, type AssetEdit } from '../../../domain/asset.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { User } from '../../../domain/user.js';
import type { ActivityLog, AssetChange } from '../../ports/activity-log.js';
import type { ActivitySigner } from '../../ports/activity-signer.js';
import type { Clock } from '../../ports/clock.js';
import type { WorkSignal } from '../../ports/work-signal.js';

const MAX_ATTEMPTS = 100;

/** Why an activity was not appended: its asset change no longer fits the stored asset. */
export type PublishRefusal = 'asset_exists' | 'asset_gone' | 'asset_changed';

export interface Published {
  readonly activity: Activity;
  /** The asset as the activity left it. */
  readonly asset: Asset;
}

/** What the store applies for an edit published at `at`. */
function changeOf(edit: AssetEdit, asset: Asset, at: Date): AssetChange {
  switch (edit.kind) {
    case 'create':
      return { kind: 'create', asset };
    case 'update':
      return { kind: 'update', asset, expectedUpdatedAt: edit.current.updatedAt };
    case 'delete':
      return { kind: 'delete', name: asset.name, deletedAt: at };
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
 * process appends take turns, so that race only happens between processes.
 */
export class PublishActivity {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly log: ActivityLog,
    private readonly signer: ActivitySigner,
    private readonly clock: Clock,
    private readonly urls: Urls,
    /** Woken after an append, which may have queued deliveries. */
    private readonly signal: WorkSignal,
  ) {}

  execute(input: { publisher: User; edit: AssetEdit }): Promise<Result<Published, PublishRefusal>> {
    const run = this.turn.then(() => this.append(input.publisher, input.edit));
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async append(publisher: User, edit: AssetEdit): Promise<Result<Published, PublishRefusal>> {
    const type = activityTypeOf(edit.kind);
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
      const outcome = await this.log.append(activity, changeOf(edit, asset, published));
      if (outcome === 'appended') {
        this.signal.jobsQueued();
        return ok({ activity, asset });
      }
      if (outcome !== 'idx_taken') return err(outcome);
    }
    throw new Error(`no free activity idx after ${MAX_ATTEMPTS} attempts`);
  }
}
