// A person's blocks as plain JSON (API.md §4.3), each typed by the schema /openapi.json publishes for it.
import type { ActorBlock } from '../../../../domain/actor-block.js';
import type { Page } from '../../../../domain/page.js';
import type { ActorBlockJson, ActorBlockList, UnblockedResponse } from '../block-schemas.js';
import type { Presented } from './presented.js';
import { listJson } from './registry-presenters.js';

export const actorBlockJson = (block: ActorBlock): Presented<typeof ActorBlockJson> => ({
  id: block.id,
  actor: block.actor,
  created_at: block.createdAt.toISOString(),
});

/** GET /users/{u}/blocks: a page of the user's blocks, newest first. */
export const actorBlockListJson = (
  page: Page<ActorBlock>,
  link: (cursor: Record<string, string>) => string,
): Presented<typeof ActorBlockList> => listJson(page, actorBlockJson, link);

/** DELETE /users/{u}/blocks/{id}: the block removed. */
export const unblockedJson = (block: ActorBlock): Presented<typeof UnblockedResponse> => ({
  id: block.id,
  actor: block.actor,
});
