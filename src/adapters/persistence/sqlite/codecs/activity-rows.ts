import type { ActivityType } from '../../../../domain/activity.js';
import type { AssetName } from '../../../../domain/asset.js';
import type { Username } from '../../../../domain/user.js';
import type { LoggedActivity } from '../../stored-records.js';
import { sqliteTable } from '../sqlite-codec.js';

/** An activity as one row of `activities`: `idx` is the rowid, `document` its entry (the signed JSON text). */
export const ACTIVITY_ROWS = sqliteTable('activities', {
  idx: 'integer',
  type: 'text',
  actor: 'text',
  object: 'text',
  published: 'integer',
  document: 'text',
}).codec<LoggedActivity>({
  toRow: (activity) => ({
    idx: activity.idx,
    type: activity.type,
    actor: activity.actor,
    object: activity.object,
    published: activity.published.getTime(),
    document: activity.entry,
  }),
  fromRow: (row) => ({
    idx: row.idx,
    type: row.type as ActivityType,
    actor: row.actor as Username,
    object: row.object as AssetName,
    published: new Date(row.published),
    entry: row.document,
  }),
});
