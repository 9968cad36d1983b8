// The transparency log's refusals (API.md §8): resources it does not serve, a checkpoint not signed yet, and entry
// bundles to build while too many are being built (issue 33).
import { DEFAULT_ENTRY_BUNDLE_LIMITS as BUNDLES } from '../../../../application/use-cases.js';
import { ErrorTable, refusals } from './error-table.js';

/** A write met a transparency log that cannot sign (the error middleware's 503): it stored nothing. */
export const LOG_UNSIGNABLE = refusals({
  status: 503,
  code: 'unavailable',
  doc: 'the transparency log found the stored activities no longer matching what it signed, or is still checking them at start-up: nothing is stored',
});

const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

export const TLOG_ERRORS = new ErrorTable<
  | { readonly type: 'not_found' }
  | { readonly type: 'checkpoint_pending' }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number }
  | { readonly type: 'busy'; readonly retryAfterSeconds: number }
>({
  not_found: {
    status: 404,
    doc: 'not a tile or entry bundle path as c2sp.org/tlog-tiles spells it (one spelling per resource: no leading zeros, widths 1–255), an empty tile, or one the latest checkpoint does not cover',
    detail: 'The log has no such tile or entry bundle.',
  },
  checkpoint_pending: {
    status: 503,
    code: 'unavailable',
    doc: 'the first checkpoint is being signed (the start-up check of a store is still running)',
    detail: 'The first checkpoint is being signed. Try again shortly.',
    headers: () => ({ 'Retry-After': '5' }),
  },
  rate_limited: {
    status: 429,
    doc: `an entry bundle not in memory, while ${BUNDLES.buildsPerClient} are being built for this address (see Retry-After)`,
    detail: ({ retryAfterSeconds: s }) =>
      `Too many entry bundles are being built for your address. Try again in ${seconds(s)}.`,
    headers: (error) => ({ 'Retry-After': String(error.retryAfterSeconds) }),
  },
  busy: {
    status: 503,
    code: 'unavailable',
    doc: `an entry bundle not in memory, while ${BUNDLES.buildsAtOnce} are being built in all (see Retry-After)`,
    detail: ({ retryAfterSeconds: s }) =>
      `Too many entry bundles are being built. Try again in ${seconds(s)}.`,
    headers: (error) => ({ 'Retry-After': String(error.retryAfterSeconds) }),
  },
});

export const PROOF_ERRORS = new ErrorTable<
  { readonly type: 'invalid_request' } | { readonly type: 'not_found'; readonly idx: string }
>({
  invalid_request: {
    status: 400,
    doc: 'idx is not a non-negative integer',
    detail: 'idx: use a non-negative integer.',
  },
  not_found: {
    status: 404,
    doc: 'no activity has this idx, or the latest checkpoint does not cover it yet',
    detail: (error) => `The latest checkpoint covers no activity ${error.idx}.`,
  },
});
