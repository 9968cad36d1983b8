// The registry's error unions as HTTP answers (API.md §3): asset writes and reads, activities, list filters.
import type { AssetError } from '../../../../application/services/asset-checks.js';
import { MAX_ACTIVITY_ENTRY_BYTES } from '../../../../domain/activity.js';
import { ErrorTable } from './error-table.js';
import { invalidField, rateLimited, SCOPED_TOKEN_DETAIL, scopedTokenForbidden } from './shared-refusals.js';

/** Every asset refusal; the context is the name the request gave (the not-found and gone details repeat it). */
export const ASSET_ERRORS = new ErrorTable<AssetError, { readonly name: string }>({
  invalid_request: invalidField(),
  asset_exists: {
    status: 409,
    doc: 'the name is taken (also by a deleted asset)',
    input: true,
    detail: (error) => `The asset name '${error.name}' is already taken.`,
  },
  not_found: {
    status: 404,
    doc: 'there is no asset of this name',
    detail: (_, { name }) => `There is no asset named '${name}'.`,
  },
  gone: {
    status: 410,
    doc: 'the asset was deleted',
    detail: (_, { name }) => `The asset '${name}' has been deleted.`,
  },
  // Only the owner's refusal is the person's to fix in the form; a scoped token is refused as everywhere else.
  forbidden: {
    status: 403,
    doc: [
      'not the owner',
      scopedTokenForbidden.doc as string,
      'the account has moved (the detail names the target)',
    ],
    input: (error) => error.reason === 'not_owner',
    detail: (error) =>
      error.reason === 'scoped_token'
        ? SCOPED_TOKEN_DETAIL
        : error.reason === 'moved'
          ? `This account has moved to ${error.movedTo}: its assets no longer change here. Cancel the move to change them.`
          : 'Only the owner can change this asset.',
  },
  rate_limited: rateLimited(
    'Too many asset changes in a short time. Try again later.',
    'the per-user budget of asset writes is used up (see Retry-After)',
  ),
  payload_too_large: {
    status: 413,
    doc: `the signed activity the change makes would exceed ${MAX_ACTIVITY_ENTRY_BYTES.toLocaleString('en')} bytes, the most one transparency log entry holds`,
    input: true,
    detail: `The activity this change makes would exceed ${MAX_ACTIVITY_ENTRY_BYTES.toLocaleString('en')} bytes, the most the transparency log holds for one activity. Shorten the description, alt text or tags.`,
  },
});

export const ACTIVITY_ERRORS = new ErrorTable<
  { readonly type: 'invalid_request' } | { readonly type: 'not_found'; readonly idx: string }
>({
  invalid_request: {
    status: 400,
    doc: 'idx is not a non-negative integer',
    detail: 'idx: use a non-negative integer.',
  },
  not_found: {
    status: 404,
    doc: 'no activity has this idx',
    detail: (error) => `There is no activity ${error.idx}.`,
  },
});

/** The registry's `owner` filter. */
export const OWNER_FILTER_ERRORS = new ErrorTable<{ readonly type: 'invalid_owner' }>({
  invalid_owner: {
    status: 400,
    code: 'invalid_request',
    doc: 'owner is not a valid username',
    detail: 'owner: not a valid username.',
  },
});
