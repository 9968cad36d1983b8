// The Account page: the password, the profile, deleting the account — and what protects it (two-step sign-in,
// recovery codes, passkeys) with its history. Every account form that is refused shows this page again.
import type { Context } from 'koa';
import { ACCOUNT_EVENT_TEXT } from '../../../domain/account-security.js';
import type { HttpDependencies } from './dependencies.js';
import { renderPage } from './pages.js';
import { viewer } from './request-auth.js';

/** The notices of `/account?done=…`, after a form that changed something. */
const NOTICES: Record<string, string> = {
  'totp-off': 'Two-step sign-in is off. You sign in with your password (or a passkey) alone.',
  'passkey-added': 'Your passkey was added. You can sign in with it, without your password.',
  'passkey-removed': 'The passkey was removed.',
};

export function noticeOf(query: Record<string, unknown>): string | undefined {
  if (query.changed === '1') return 'Your password was changed; your other sessions were ended.';
  return typeof query.done === 'string' ? NOTICES[query.done] : undefined;
}

export async function renderAccountPage(
  ctx: Context,
  deps: HttpDependencies,
  extra: { readonly error?: string; readonly notice?: string | undefined },
  status = 200,
): Promise<void> {
  const session = await viewer(ctx, deps);
  const view = session ? await deps.useCases.getAccountSecurity.execute(session) : null;
  const security = view?.ok
    ? {
        ...view.value,
        history: view.value.history.map((e) => ({ ...e, text: ACCOUNT_EVENT_TEXT[e.kind] })),
      }
    : null;
  // How many follow requests wait, beside the link to them (API.md §4.3).
  const waiting = session ? await deps.useCases.countFollowRequests.execute(session.claims.username) : 0;
  await renderPage(ctx, deps, 'account', { title: 'Account', security, waiting, ...extra }, status);
}
