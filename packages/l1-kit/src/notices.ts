import { isObject } from './http.js';
import { NoticeLedger } from './notice-ledger.js';
import { hashToken, TOKEN_HASH } from './tokens.js';
import type { KitResponse, LogoutNotice } from './types.js';

const MAX_NOTICE_BYTES = 64 * 1024;

/** What a notice needs of the verifier: to forget any verdict for a token, including one on its way back from L2. */
export interface VerdictPurge {
  purge(tokenHash: string): void;
}

/** What the receiver learns of a logout token: the notice it carries, or why not. */
export type LogoutTokenVerdict =
  | { kind: 'valid'; notice: LogoutNotice }
  /** Unsigned, forged, expired, for another audience…: L2 does not retry a 4xx. */
  | { kind: 'invalid'; reason: string }
  /** L2's keys cannot be fetched right now, or the token names a key newer than the copy: L2 should retry. */
  | { kind: 'keys_unavailable'; retryAfter: number | undefined };

/** Checks the signed `logout_token` of a notice (logout-tokens.ts). */
export interface LogoutTokenCheck {
  check(logoutToken: string): Promise<LogoutTokenVerdict>;
}

export interface NoticeReceiverParts {
  verdicts: VerdictPurge;
  logoutTokens: LogoutTokenCheck;
  /** The clock of the receiver's ledger, in epoch milliseconds. */
  now: () => number;
  onLogout?: ((notice: LogoutNotice) => void | Promise<void>) | undefined;
  /** Called by `close()`: the verifier stops caching valid answers once no receiver is left (idempotent). */
  unmount?: () => void;
}

/**
 * Receives L2's revocation notices (`POST <self>/auth/revoke`, API.md §2 and §2.4) — JSON, or a form with the one
 * field `logout_token` as L2 sends them to a document client's `backchannel_logout_uri` (§2.5; the token is checked
 * the same way, and its `token_hash` claim names the token to purge). For every notice it first purges
 * the named token's cached verdict — harmless even when the notice is forged — and only then checks the signed
 * `logout_token`; the application's `onLogout` runs once per verified notice (the receiver's ledger remembers each
 * notice's id). Answers: `204` handled (or L2's redelivery of a notice handled before: signed afresh, same `jti`),
 * `400` refused (unsigned, forged, expired, the same logout token replayed…; L2 does not retry a 4xx), `503` L2's
 * keys cannot be fetched right now, the notice names a key newer than the kit's copy of the set, or the same notice
 * is still being handled, and `500` the hook threw (L2 retries all three).
 */
export class NoticeReceiver {
  readonly #parts: NoticeReceiverParts;
  readonly #ledger: NoticeLedger;

  constructor(parts: NoticeReceiverParts) {
    this.#parts = parts;
    this.#ledger = new NoticeLedger(parts.now);
  }

  /**
   * Handles one notice body: a parsed value (JSON, or a form a body parser read), or the raw body as a string or
   * bytes — read as a form when `contentType` is `application/x-www-form-urlencoded`, as JSON otherwise.
   */
  async handle(body: unknown, contentType?: string): Promise<KitResponse> {
    const { verdicts, logoutTokens, onLogout } = this.#parts;
    const notice = isForm(contentType) ? parseForm(body) : parse(body);
    if (!isObject(notice))
      return refuse(400, 'invalid_request', 'The notice is not a JSON object or a logout_token form.');
    if (typeof notice.token_hash === 'string' && TOKEN_HASH.test(notice.token_hash))
      verdicts.purge(notice.token_hash);
    if (typeof notice.logout_token !== 'string') {
      return refuse(
        400,
        'invalid_request',
        'The notice is not signed (no logout_token): cache purged, nothing else.',
      );
    }

    const verdict = await logoutTokens.check(notice.logout_token);
    if (verdict.kind === 'keys_unavailable') {
      return refuse(503, 'unavailable', "L2's signing keys cannot be fetched right now.", verdict.retryAfter);
    }
    if (verdict.kind === 'invalid') {
      return refuse(400, 'invalid_request', `The logout token is not valid: ${verdict.reason}.`);
    }
    const claims = verdict.notice;
    verdicts.purge(claims.tokenHash);
    const seen = this.#ledger.claim(claims.jti, hashToken(notice.logout_token));
    if (seen === 'replayed')
      return refuse(400, 'invalid_request', 'This logout token was received before (a replay).');
    // L2's redelivery of a notice whose hook ran (its answer was lost): acknowledged, the hook is not run again.
    if (seen === 'done') return { status: 204, headers: { 'Cache-Control': 'no-store' } };
    if (seen === 'pending') {
      return refuse(503, 'unavailable', 'This notice is being handled; its outcome is not known yet.', 2);
    }
    try {
      await onLogout?.(claims);
    } catch {
      this.#ledger.settle(claims.jti, false);
      return refuse(500, 'internal_error', 'internal_error');
    }
    this.#ledger.settle(claims.jti, true);
    return { status: 204, headers: { 'Cache-Control': 'no-store' } };
  }

  /** Unmounts the receiver: once none is left, valid answers are no longer cached (and those cached are dropped). */
  close(): void {
    this.#parts.unmount?.();
  }
}

function parse(body: unknown): unknown {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    if (body.length > MAX_NOTICE_BYTES) return undefined;
    try {
      return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    } catch {
      return undefined;
    }
  }
  return body;
}

const isForm = (contentType: string | undefined): boolean =>
  contentType?.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';

/** A form notice: `logout_token`, exactly once (a repeated field is refused, not guessed between). */
function parseForm(body: unknown): unknown {
  if (!(typeof body === 'string' || body instanceof Uint8Array)) return body; // a body parser read it already
  if (body.length > MAX_NOTICE_BYTES) return undefined;
  const fields = new URLSearchParams(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
  const tokens = fields.getAll('logout_token');
  return tokens.length === 1 ? { logout_token: tokens[0] } : {};
}

function refuse(status: number, code: string, detail: string, retryAfter?: number): KitResponse {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  };
  return {
    status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
    },
    body: JSON.stringify({ type: 'about:blank', title: titles[status], status, code, detail }),
  };
}
