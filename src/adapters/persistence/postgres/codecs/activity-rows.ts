import type { ActivityType } from '../../../../domain/activity.js';
import type { AssetName } from '../../../../domain/asset.js';
import type { Username } from '../../../../domain/user.js';
import type { LoggedActivity } from '../../stored-records.js';
import { postgresTable } from '../postgres-codec.js';

/** An activity as one row of `activities`: `idx` its position, `document` its entry (the signed JSON text, as is). */
export const ACTIVITY_ROWS = postgresTable('activities', {
  idx: 'bigint',
  type: 'text',
  actor: 'text',
  object: 'text',
  published: 'timestamptz',
  document: 'text',
}).codec<LoggedActivity>({
  toRow: (activity) => ({
    idx: activity.idx,
    type: activity.type,
    actor: activity.actor,
    object: activity.object,
    published: activity.published,
    document: activity.entry,
  }),
  fromRow: (row) => ({
    idx: row.idx,
    type: row.type as ActivityType,
    actor: row.actor as Username,
    object: row.object as AssetName,
    published: row.published,
    entry: row.document,
  }),
});
