// Rule (API.md §2.5): what an OpenID Connect request's `prompt` and `max_age` ask of the browser's session.
// `prompt=none` never shows a page: signed out or signed in too long ago → `login_required`; a client not allowed
// before (no attachment in force) → `consent_required`; otherwise a code at once. `prompt=login`, `max_age=0`, or a
// session older than `max_age` → the person signs in again first, and only a sign-in completed after the request
// arrived answers it. Everything else is the consent page of §2.3.
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import {
  signInNeeded,
  type AuthorizationRedirectError,
  type OpenIdParameters,
} from '../../../domain/openid.js';
import { toSeconds, type TokenClaims } from '../../../domain/token.js';
import type { Clock } from '../../ports/clock.js';
import type { RendererAttachments } from '../../ports/renderer-attachments.js';

export type PromptOutcome =
  /** Send the browser to sign in, and back with this arrival time (seconds). */
  | { readonly kind: 'sign_in'; readonly arrivedAt: number }
  /** Back to the client with this error. */
  | { readonly kind: 'refuse'; readonly error: AuthorizationRedirectError }
  /** `prompt=none` for a client allowed before: a code without a page. */
  | { readonly kind: 'grant' }
  /** The consent page (or, for its form, the decision the person made on it). */
  | { readonly kind: 'ask' };

export class DecideAuthorizationPrompt {
  constructor(
    private readonly attachments: RendererAttachments,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    params: OpenIdParameters;
    clientId: L1ServerUrl;
    /** The browser's session, or null when signed out. */
    session: TokenClaims | null;
    /** When the request first arrived, if it went to sign in and came back (a verified mark); null otherwise. */
    signedInAfter: number | null;
  }): Promise<PromptOutcome> {
    const { params, session, signedInAfter } = input;
    const now = toSeconds(this.clock.now());
    const needed = signInNeeded({ params, session, now, signedInAfter });
    if (params.prompt.has('none')) {
      if (needed || session === null)
        return refuse('login_required', 'The person is not signed in at L2, or signed in too long ago.');
      const attached = await this.attachments.list(session.username);
      if (!attached.some((attachment) => attachment.l1Server === input.clientId))
        return refuse('consent_required', 'The person has not allowed this client at L2.');
      return { kind: 'grant' };
    }
    if (needed) return { kind: 'sign_in', arrivedAt: signedInAfter ?? now };
    return { kind: 'ask' };
  }
}

const refuse = (error: AuthorizationRedirectError['error'], description: string): PromptOutcome => ({
  kind: 'refuse',
  error: { error, description },
});
