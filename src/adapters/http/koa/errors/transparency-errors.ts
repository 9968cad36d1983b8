// The transparency log's refusals (API.md §8): resources it does not serve, and a checkpoint not signed yet.
import { ErrorTable, refusals } from './error-table.js';

/** A write met a transparency log that cannot sign (the error middleware's 503): it stored nothing. */
export const LOG_UNSIGNABLE = refusals({
  status: 503,
  code: 'unavailable',
  doc: 'the transparency log found the stored activities no longer matching what it signed, or is still checking them at start-up: nothing is stored',
});

export const TLOG_ERRORS = new ErrorTable<
  { readonly type: 'not_found' } | { readonly type: 'checkpoint_pending' }
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
