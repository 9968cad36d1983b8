// Assets (API.md §3): register, change and delete one — from the API or the browser's forms — and read one.
import type { Context } from 'koa';
import { tombstoneObject } from '../../../../domain/activity-document.js';
import { ACTIVITY_CONTEXT } from '../../../../domain/activity-streams.js';
import { altTextOf, assetNote } from '../../../../domain/asset-note.js';
import { fixedFieldsNamed, isHttps, type Asset } from '../../../../domain/asset.js';
import type { HttpDependencies } from '../dependencies.js';
import { BODY_ERRORS, JSON_BODY, NOT_ACCEPTABLE } from '../errors/edge-errors.js';
import { ASSET_ERRORS } from '../errors/registry-errors.js';
import {
  body,
  json,
  jsonOrActivityStreams,
  nameParam,
  negotiated,
  SESSION_WRITE,
  signedIn,
  signedInPostDoc,
} from '../openapi-docs.js';
import { PAGE, type RouteTable } from '../route-table.js';
import * as registrySchemas from '../../shared/registry-schemas.js';
import { formOrJson, isFormPost, renderPage, seeOther } from '../pages.js';
import { HttpProblem } from '../problem.js';
import {
  assetJson,
  assetWithActivityJson,
  deletedAssetJson,
} from '../../shared/presenters/registry-presenters.js';
import { negotiate } from '../../shared/negotiate.js';
import { requireSession, viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import { validateBody } from '../validate.js';
import { LOG_UNSIGNABLE } from '../errors/transparency-errors.js';

/** The asset form's fields as the person typed them, to show again after an error. */
function formValues(body: unknown, asset?: Asset): Record<string, string> {
  const b = (body ?? {}) as Record<string, unknown>;
  const text = (key: string, fallback = '') => (typeof b[key] === 'string' ? (b[key] as string) : fallback);
  return {
    name: asset?.name ?? text('name'),
    content_hash: asset?.contentHash ?? text('content_hash'),
    media_type: text('media_type', asset?.mediaType ?? ''),
    url: text('url', asset?.url ?? ''),
    description: text('description', asset?.description ?? ''),
    alt_text: text('alt_text', asset?.altText ?? ''),
    // A ticked checkbox sends `on`; an unticked one sends nothing.
    sensitive:
      b.sensitive !== undefined ? String(b.sensitive !== 'false') : String(asset?.sensitive ?? false),
    tags: text('tags', asset?.tags.join(', ') ?? ''),
  };
}

export function assetRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, urls } = deps;

  /** A refused asset form shows again with the message and what was typed. */
  const showAssetForm = (ctx: Context, editing: Asset | null) => (problem: HttpProblem) =>
    renderAssetForm(
      ctx,
      editing,
      // A refused form post: an unticked checkbox sent nothing, and means "not sensitive", not "as stored".
      formValues({ sensitive: 'false', ...(ctx.request.body as object) }, editing ?? undefined),
      problem.detail,
      problem.status,
    );

  const renderAssetForm = (
    ctx: Context,
    editing: Asset | null,
    form: Record<string, string>,
    error?: string,
    status = 200,
  ) =>
    renderPage(
      ctx,
      deps,
      'asset-form',
      {
        title: editing ? `Edit ${editing.name}` : 'Register an asset',
        editing: editing !== null,
        action: editing ? `/assets/${encodeURIComponent(editing.name)}` : '/assets',
        form,
        ...(error ? { error } : {}),
      },
      status,
    );

  /** Pages that need a signed-in user send a signed-out browser to the login form, and back afterwards. */
  const signedInOrLogin = async (ctx: Context) => {
    const signedIn = await viewer(ctx, deps);
    if (!signedIn) seeOther(ctx, `/login?next=${encodeURIComponent(ctx.path)}`);
    return signedIn;
  };

  routes.get('/assets/new', PAGE, async (ctx, next) => {
    // An asset may be called "new": only a browser asking for a page gets the form.
    if (negotiate(ctx.get('Accept'), ['html', 'json', 'ap']) !== 'html') return next();
    ctx.vary('Accept');
    if (!(await signedInOrLogin(ctx))) return;
    await renderAssetForm(ctx, null, formValues({}));
  });

  routes.get('/assets/:name/edit', PAGE, async (ctx) => {
    const signedIn = await signedInOrLogin(ctx);
    if (!signedIn) return;
    const name = String(ctx.params.name);
    const editable = await useCases.getEditableAsset.execute({ writer: signedIn.claims, name });
    if (!editable.ok) throw ASSET_ERRORS.problem(editable.error, { name });
    await renderAssetForm(ctx, editable.value, formValues({}, editable.value));
  });

  routes.post(
    '/assets',
    signedInPostDoc({
      summary: 'Register an asset (appends a signed Create)',
      body: registrySchemas.RegisterAssetRequest,
      ok: [201, registrySchemas.AssetWithActivity, 'Registered'],
      redirect: 'Form post: redirected to the asset page',
      refusals: [
        ASSET_ERRORS.only(
          'invalid_request',
          'asset_exists',
          'forbidden',
          'rate_limited',
          'payload_too_large',
        ),
        LOG_UNSIGNABLE,
      ],
    }),
    (ctx) => formOrJson(ctx, showAssetForm(ctx, null), () => registerAsset(ctx)),
  );

  const registerAsset = async (ctx: Context) => {
    const session = await requireSession(ctx, deps);
    const input = validateBody(ctx, registrySchemas.RegisterAssetRequest);
    const result = await useCases.registerAsset.execute({
      writer: session.claims,
      name: input.name,
      fields: {
        contentHash: input.content_hash,
        mediaType: input.media_type,
        url: input.url ?? null,
        description: input.description ?? '',
        altText: input.alt_text ?? null,
        sensitive: input.sensitive ?? false,
        tags: input.tags ?? [],
      },
    });
    if (!result.ok) throw ASSET_ERRORS.problem(result.error, { name: input.name });
    const { asset, activity } = result.value;
    if (isFormPost(ctx)) return seeOther(ctx, `/assets/${encodeURIComponent(asset.name)}`);
    ctx.status = 201;
    ctx.set('Location', urls.asset(asset.name));
    ctx.body = assetWithActivityJson(asset, activity, urls);
  };

  const update = async (ctx: Context) => {
    const session = await requireSession(ctx, deps);
    const name = String(ctx.params.name);
    // The edit form shows the fixed fields read-only; only an API client asking to change them is refused, before
    // the schema (which would drop them) judges the rest.
    const fixed = isFormPost(ctx) ? null : fixedFieldsNamed((ctx.request.body ?? {}) as object);
    if (fixed) throw ASSET_ERRORS.problem({ type: 'invalid_request', ...fixed }, { name });
    const input = validateBody(ctx, registrySchemas.UpdateAssetRequest);
    // The edit form always carries the whole form, and an unticked checkbox sends nothing: it means "not sensitive".
    const sensitive = input.sensitive ?? (isFormPost(ctx) ? false : undefined);
    const result = await useCases.updateAsset.execute({
      writer: session.claims,
      name,
      changes: {
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.media_type !== undefined ? { mediaType: input.media_type } : {}),
        ...(input.alt_text !== undefined ? { altText: input.alt_text } : {}),
        ...(sensitive !== undefined ? { sensitive } : {}),
      },
    });
    if (!result.ok) throw ASSET_ERRORS.problem(result.error, { name });
    if (isFormPost(ctx)) return seeOther(ctx, `/assets/${encodeURIComponent(name)}`);
    ctx.body = assetWithActivityJson(result.value.asset, result.value.activity, urls);
  };

  const remove = async (ctx: Context) => {
    const session = await requireSession(ctx, deps);
    const name = String(ctx.params.name);
    const result = await useCases.deleteAsset.execute({ writer: session.claims, name });
    if (!result.ok) throw ASSET_ERRORS.problem(result.error, { name });
    if (isFormPost(ctx)) return seeOther(ctx, '/registry');
    ctx.body = deletedAssetJson(result.value.activity, urls);
  };

  routes.patch(
    '/assets/:name',
    {
      summary:
        "Change an asset's description, tags, url, media type, alt text or sensitive flag (owner only; appends a " +
        'signed Update)',
      security: signedIn,
      request: { params: nameParam, ...body(registrySchemas.UpdateAssetRequest) },
      responses: { 200: json(registrySchemas.AssetWithActivity, 'Changed') },
      refusals: [
        ...SESSION_WRITE,
        ...JSON_BODY,
        ASSET_ERRORS.only(
          'invalid_request',
          'not_found',
          'gone',
          'forbidden',
          'rate_limited',
          'payload_too_large',
        ),
        LOG_UNSIGNABLE,
      ],
    },
    update,
  );
  routes.delete(
    '/assets/:name',
    {
      summary: 'Delete an asset (owner only; appends a signed Delete; the name stays taken)',
      security: signedIn,
      request: { params: nameParam },
      responses: { 200: json(registrySchemas.DeletedAsset, 'Deleted') },
      refusals: [
        ...SESSION_WRITE,
        BODY_ERRORS,
        ASSET_ERRORS.only('not_found', 'gone', 'forbidden', 'rate_limited'),
        LOG_UNSIGNABLE,
      ],
    },
    remove,
  );
  // HTML forms cannot send PATCH or DELETE: they post with a hidden _method.
  routes.post('/assets/:name', PAGE, async (ctx) => {
    const method = (ctx.request.body as Record<string, unknown> | undefined)?._method;
    if (method === 'PATCH') {
      const current = await useCases.getAsset.execute(String(ctx.params.name));
      return formOrJson(ctx, showAssetForm(ctx, current), () => update(ctx));
    }
    if (method === 'DELETE') return remove(ctx);
    throw new HttpProblem(400, 'invalid_request', '_method: use PATCH or DELETE.', {
      errors: [{ path: '_method', message: 'Use PATCH or DELETE.' }],
    });
  });

  routes.get(
    '/assets/:name',
    {
      summary: 'One asset',
      description:
        `${negotiated} application/activity+json gives the ActivityStreams object (a Tombstone, with 410, once ` +
        'the asset is deleted).',
      request: { params: nameParam },
      responses: { 200: jsonOrActivityStreams(registrySchemas.Asset, 'The asset, or its Note') },
      refusals: [NOT_ACCEPTABLE, ASSET_ERRORS.only('not_found', 'gone')],
    },
    async (ctx) => {
      const name = String(ctx.params.name);
      const asset = await useCases.getAsset.execute(name);
      if (!asset) throw ASSET_ERRORS.problem({ type: 'not_found' }, { name });
      if (asset.deletedAt) {
        const deletedAt = asset.deletedAt;
        await respond(ctx, {
          html: () => renderPage(ctx, deps, 'gone', { title: `${name} was deleted`, name }, 410),
          json: () => {
            throw ASSET_ERRORS.problem({ type: 'gone' }, { name });
          },
          ap: () => {
            ctx.status = 410;
            return { '@context': ACTIVITY_CONTEXT[0], ...tombstoneObject(asset, urls, deletedAt) };
          },
        });
        return;
      }
      await respond(ctx, {
        html: () =>
          renderPage(ctx, deps, 'asset', {
            title: asset.name,
            asset: assetJson(asset, urls),
            // A picture is shown only from an https URL (a page never loads a file over plain http).
            picture:
              isHttps(asset.url) && asset.mediaType.startsWith('image/')
                ? { url: asset.url, alt: altTextOf(asset) }
                : null,
            tags: asset.tags.map((tag) => ({ name: tag, href: `/tags/${encodeURIComponent(tag)}` })),
            alternate: urls.asset(asset.name),
          }),
        ap: () => ({ '@context': ACTIVITY_CONTEXT, ...assetNote(asset, urls) }),
        json: () => assetJson(asset, urls),
      });
    },
  );
}
