// Users as plain JSON (API.md §4.1, §4.2): the list's summary and one user with the profile (the actor document is
// the domain's, hot-paths/answers.ts serialises it). Each is typed by the schema /openapi.json publishes for it.
import type { Urls } from '../../../../domain/activity-streams.js';
import type { Page } from '../../../../domain/page.js';
import type { UserProfile } from '../../../../domain/user.js';
import type { UserWithProfile } from '../profile-schemas.js';
import type { UserList, UserSummary } from '../schemas.js';
import type { Presented } from './presented.js';
import { listJson } from './registry-presenters.js';

export const userJson = (user: UserProfile, urls: Urls): Presented<typeof UserSummary> => ({
  username: user.username,
  actor: urls.actor(user.username),
  created_at: user.createdAt.toISOString(),
});

/** One user (GET /users/{u}, PATCH /users/{u}): the list's fields and the profile (API.md §4.2). */
export const userWithProfileJson = (user: UserProfile, urls: Urls): Presented<typeof UserWithProfile> => {
  const { profile } = user;
  return {
    ...userJson(user, urls),
    display_name: profile.displayName,
    bio: profile.bio,
    avatar: profile.avatar,
    header: profile.header,
    fields: profile.fields.map(({ name, value }) => ({ name, value })),
    pinned: [...profile.pinned],
    indexable: profile.indexable,
    manually_approves_followers: profile.manuallyApprovesFollowers,
  };
};

/** GET /users: a page of registered users. */
export const userListJson = (
  page: Page<UserProfile>,
  urls: Urls,
  link: (cursor: Record<string, string>) => string,
): Presented<typeof UserList> => listJson(page, (user) => userJson(user, urls), link);
