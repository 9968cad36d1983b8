import type { ActivityType } from '../../../../domain/activity.js';
import type { AssetName } from '../../../../domain/asset.js';
import type { Username } from '../../../../domain/user.js';
import type { LoggedActivity } from '../../stored-records.js';
import type { MongoCodec } from '../mongo-codec.js';

/** An activity, keyed by its idx; `document` is its entry (the signed JSON text), so it comes back as it went in. */
export interface ActivityDocument {
  _id: number;
  type: string;
  actor: string;
  object: string;
  published: Date;
  document: string;
}

export const ACTIVITY_DOCUMENTS: MongoCodec<LoggedActivity, ActivityDocument> = {
  toDocument: (activity) => ({
    _id: activity.idx,
    type: activity.type,
    actor: activity.actor,
    object: activity.object,
    published: activity.published,
    document: activity.entry,
  }),
  fromDocument: (doc) => ({
    idx: doc._id,
    type: doc.type as ActivityType,
    actor: doc.actor as Username,
    object: doc.object as AssetName,
    published: doc.published,
    entry: doc.document,
  }),
};
