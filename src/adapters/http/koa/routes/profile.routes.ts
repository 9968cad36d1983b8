// Profiles (API.md §4.2): a user changes their own — from the API or the edit page — and anyone reads the pinned
// assets as the actor's `featured` collection.
import type { Context } from 'koa';
import { featuredCollection } from '../../../../domain/actor-document.js';
import { isProfilePicture } from '../../../../domain/asset.js';
import { PROFILE_RULES, type ProfileChanges } from '../../../../domain/profile.js';
import type { UserProfile } from '../../../../domain/user.js';
import type { HttpDependencies } from '../dependencies.js';
import { JSON_BODY, NOT_ACCEPTABLE } from '../errors/edge-errors.js';
import { PROFILE_ERRORS, PUBLIC_ACTOR_ERRORS } from '../errors/federation-errors.js';
import { apJson, body, json, SESSION_WRITE, signedIn, userParam } from '../openapi-docs.js';
import { formOrJson, isFormPost, renderPage, seeOther } from '../pages.js';
import { HttpProblem } from '../problem.js';
import * as profileSchemas from '../../shared/profile-schemas.js';
import { assetJson } from '../../shared/presenters/registry-presenters.js';
import { userWithProfileJson } from '../../shared/presenters/user-presenters.js';
import { requireSession, viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import { PAGE, type RouteTable } from '../route-table.js';
import { validateBody } from '../validate.js';

/** The changes a request asks for, in the domain's terms (a field left out is not changed). */
function changesOf(input: profileSchemas.UpdateProfileInput): ProfileChanges {
  return {
    ...(input.display_name !== undefined ? { displayName: input.display_name } : {}),
    ...(input.bio !== undefined ? { bio: input.bio } : {}),
    ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
    ...(input.header !== undefined ? { header: input.header } : {}),
    ...(input.fields !== undefined ? { fields: input.fields } : {}),
    ...(input.pinned !== undefined ? { pinned: input.pinned } : {}),
    ...(input.indexable !== undefined ? { indexable: input.indexable } : {}),
    ...(input.manually_approves_followers !== undefined
      ? { manuallyApprovesFollowers: input.manually_approves_followers }
      : {}),
  };
}

export function profileRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, urls } = deps;

  /** The edit page: every field, the user's pictures to choose the avatar and header from, their assets to pin. */
  const renderProfileForm = async (
    ctx: Context,
    user: UserProfile,
    form: Record<string, unknown>,
    error?: string,
    status = 200,
  ) => {
    const assets = await useCases.listRegistry.execute({ owner: user.username }, { limit: 100 });
    await renderPage(
      ctx,
      deps,
      'profile-form',
      {
        title: 'Edit your profile',
        username: user.username,
        action: `/users/${user.username}`,
        form,
        pictures: assets.items
          .filter((asset) => isProfilePicture(asset, user.username))
          .map((asset) => assetJson(asset, urls)),
        assets: assets.items.map((asset) => assetJson(asset, urls)),
        rules: PROFILE_RULES,
        ...(error ? { error } : {}),
      },
      status,
    );
  };

  /** The signed-in user's own profile, or a redirect to the login page (signed out) or a 403 (another user's). */
  const ownProfile = async (ctx: Context): Promise<UserProfile | null> => {
    const signedIn = await viewer(ctx, deps);
    if (!signedIn) {
      seeOther(ctx, `/login?next=${encodeURIComponent(ctx.path)}`);
      return null;
    }
    const found = await useCases.getPublicActor.execute(String(ctx.params.username));
    if (!found.ok) throw PUBLIC_ACTOR_ERRORS.problem(found.error);
    if (found.value.username !== signedIn.claims.username)
      throw PROFILE_ERRORS.problem({ type: 'forbidden', reason: 'not_yours' });
    return found.value;
  };

  routes.get('/users/:username/edit', PAGE, async (ctx) => {
    const user = await ownProfile(ctx);
    if (user) await renderProfileForm(ctx, user, profileSchemas.formValuesOf(user.profile));
  });

  const update = async (ctx: Context) => {
    const session = await requireSession(ctx, deps);
    const input = validateBody(ctx, profileSchemas.UpdateProfileRequest);
    // The edit page always sends the whole form, and an unticked checkbox sends nothing: "not indexable".
    const indexable = input.indexable ?? (isFormPost(ctx) ? false : undefined);
    const locked = input.manually_approves_followers ?? (isFormPost(ctx) ? false : undefined);
    const result = await useCases.updateProfile.execute({
      writer: session.claims,
      username: String(ctx.params.username),
      changes: changesOf({
        ...input,
        ...(indexable !== undefined ? { indexable } : {}),
        ...(locked !== undefined ? { manually_approves_followers: locked } : {}),
      }),
    });
    if (!result.ok) throw PROFILE_ERRORS.problem(result.error);
    if (isFormPost(ctx)) return seeOther(ctx, `/users/${result.value.username}`);
    ctx.body = userWithProfileJson(result.value, urls);
  };

  routes.patch(
    '/users/:username',
    {
      summary:
        "Change one's own profile: display name, bio, avatar, header, fields, pinned assets, indexable, " +
        'manually_approves_followers',
      description:
        'Any subset of the fields; null clears one. Every change is delivered to the followers as an Update of ' +
        'the actor.',
      security: signedIn,
      request: { params: userParam, ...body(profileSchemas.UpdateProfileRequest) },
      responses: { 200: json(profileSchemas.UserWithProfile, 'The user with the new profile') },
      refusals: [...SESSION_WRITE, ...JSON_BODY, PROFILE_ERRORS],
    },
    update,
  );

  // HTML forms cannot send PATCH: the edit page posts with a hidden _method.
  routes.post('/users/:username', PAGE, async (ctx) => {
    const method = (ctx.request.body as Record<string, unknown> | undefined)?._method;
    if (method !== 'PATCH')
      throw new HttpProblem(400, 'invalid_request', '_method: use PATCH.', {
        errors: [{ path: '_method', message: 'Use PATCH.' }],
      });
    const showForm = async (problem: HttpProblem) => {
      const found = await useCases.getPublicActor.execute(String(ctx.params.username));
      if (!found.ok) throw problem;
      await renderProfileForm(
        ctx,
        found.value,
        profileSchemas.formValuesTyped(ctx.request.body),
        problem.detail,
        problem.status,
      );
    };
    return formOrJson(ctx, showForm, () => update(ctx));
  });

  routes.get(
    '/users/:username/featured',
    {
      summary:
        "The user's pinned assets: an OrderedCollection of their Notes, in order (the actor's featured)",
      request: { params: userParam },
      responses: { 200: apJson('ActivityStreams OrderedCollection') },
      refusals: [NOT_ACCEPTABLE, PUBLIC_ACTOR_ERRORS],
    },
    async (ctx) => {
      const found = await useCases.getFeatured.execute(String(ctx.params.username));
      if (!found.ok) throw PUBLIC_ACTOR_ERRORS.problem(found.error);
      const body = () => featuredCollection(found.value.user.username, found.value.pinned, urls);
      await respond(ctx, { json: body, ap: body });
    },
  );
}
