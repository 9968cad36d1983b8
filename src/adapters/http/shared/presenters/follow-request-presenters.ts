// Follow requests as plain JSON (API.md §4.3): the list shape of §0, and a decision's answer.
import type { FollowRequest, FollowRequestDecision } from '../../../../domain/follow-request.js';
import type { Page } from '../../../../domain/page.js';
import type {
  FollowRequestDecided,
  FollowRequestItem,
  FollowRequestList,
} from '../follow-request-schemas.js';
import type { Presented } from './presented.js';
import { listJson } from './registry-presenters.js';

export const followRequestJson = (request: FollowRequest): Presented<typeof FollowRequestItem> => ({
  id: request.id,
  actor: request.actor,
  requested_at: request.requestedAt.toISOString(),
});

export const followRequestListJson = (
  page: Page<FollowRequest>,
  link: (cursor: Record<string, string>) => string,
): Presented<typeof FollowRequestList> => listJson(page, followRequestJson, link);

export const followRequestDecidedJson = (
  request: FollowRequest,
  state: FollowRequestDecision,
): Presented<typeof FollowRequestDecided> => ({ id: request.id, actor: request.actor, state });
