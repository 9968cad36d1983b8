import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/** The query parameter that carries the mark through `/login` and back, and through the consent form. */
export const SIGNED_IN_AFTER = 'l2_signed_in_after';

/** The parts of an authorization request a mark is bound to: it cannot be moved to another request. */
type MarkedRequest = Readonly<Record<string, unknown>>;
const BOUND = ['client_id', 'redirect_uri', 'state', 'nonce', 'code_challenge', 'prompt', 'max_age'] as const;

/**
 * When `prompt=login` or `max_age` sends the browser to sign in again (API.md §2.5), the request comes back from
 * `/login` with the time it first arrived, signed: only a session that signed in at or after that time answers it.
 * Signed (HMAC under a key derived from the JWT secret) and bound to the request, so that nobody can write an old
 * time into a link and have an earlier sign-in count as the fresh one the client asked for.
 */
export class SignInMarks {
  constructor(private readonly key: KeyObject) {}

  /** The mark for `request`, first arrived at `arrivedAt` (seconds). */
  make(request: MarkedRequest, arrivedAt: number): string {
    return `${arrivedAt}.${this.mac(request, arrivedAt)}`;
  }

  /** The arrival time a mark carries, or null when there is none or it is not ours for this request. */
  read(request: MarkedRequest): number | null {
    const mark = request[SIGNED_IN_AFTER];
    if (typeof mark !== 'string') return null;
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(mark);
    if (!match) return null;
    const arrivedAt = Number(match[1]);
    const expected = Buffer.from(this.mac(request, arrivedAt));
    const sent = Buffer.from(match[2]!);
    return expected.length === sent.length && timingSafeEqual(expected, sent) ? arrivedAt : null;
  }

  private mac(request: MarkedRequest, arrivedAt: number): string {
    const bound = BOUND.map((name) => (typeof request[name] === 'string' ? request[name] : ''));
    return createHmac('sha256', this.key)
      .update(JSON.stringify(['signed-in-after', arrivedAt, ...bound]))
      .digest('base64url');
  }
}
