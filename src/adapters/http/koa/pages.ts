import type { Context } from 'koa';
import type { HttpDependencies } from './dependencies.js';
import { InputProblem } from './problem.js';
import { viewer } from './request-auth.js';
import { personalPage } from './security-headers.js';
import { canParseUrl } from '../../../domain/url-parse.js';

/** Renders a page with the signed-in user and a CSRF token for its forms. */
export async function renderPage(
  ctx: Context,
  deps: HttpDependencies,
  template: string,
  model: Record<string, unknown>,
  status = 200,
): Promise<void> {
  const signedIn = await viewer(ctx, deps);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = deps.views.render(
    template,
    {
      currentUser: signedIn?.claims.username ?? null,
      csrfToken: deps.csrf.tokenFor(ctx, signedIn?.claims.jti ?? null),
      path: ctx.path,
    },
    model,
  );
  // After rendering: the CSRF token may just have set its cookie.
  personalPage(ctx, signedIn !== null);
}

/** A form post is a browser: it gets 303 redirects and re-rendered forms instead of JSON. */
export const isFormPost = (ctx: Context): boolean =>
  typeof ctx.request.is('application/x-www-form-urlencoded') === 'string';

/**
 * The CSRF check of a form anyone may post (log in, register, the second step, a reset link). renderPage made its
 * token for whoever viewed the page: usually nobody, but a signed-in browser gets a token bound to its session (a
 * stale tab, a reset link opened in a shared browser). Either is accepted — both are bound to this browser's CSRF
 * cookie, which no other site can read — so that neither a signed-in browser nor a cookie planted after the page was
 * rendered makes the form fail.
 */
export async function checkFormOfAnyViewer(ctx: Context, deps: HttpDependencies): Promise<void> {
  if (!isFormPost(ctx)) return;
  try {
    deps.csrf.check(ctx, null);
  } catch (signedOutRefused) {
    const signedIn = await viewer(ctx, deps);
    if (signedIn === null) throw signedOutRefused;
    deps.csrf.check(ctx, signedIn.claims.jti);
  }
}

/**
 * Runs a handler that a browser form or an API client may call, deciding which before it runs: a form post whose
 * input is refused (an InputProblem) is shown its form again by `showForm`; everything else, and every API
 * request, answers as it is thrown (problem+json, or an error page).
 */
export async function formOrJson(
  ctx: Context,
  showForm: (problem: InputProblem) => Promise<void>,
  handle: () => Promise<void>,
): Promise<void> {
  if (!isFormPost(ctx)) return handle();
  try {
    await handle();
  } catch (error) {
    if (!(error instanceof InputProblem)) throw error;
    for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
    await showForm(error);
  }
}

/** Answers 303 See Other with an empty body (Koa's default body would echo the URL into HTML). */
export function seeOther(ctx: Context, location: string): void {
  // Body first: Koa turns the status into 204 when the body is set to null afterwards.
  ctx.body = '';
  ctx.status = 303;
  ctx.set('Location', location);
  ctx.remove('Content-Type');
}

/** Only local paths are accepted as a post-login destination, so the login form is no open redirect. */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/';
  // Parse as a browser would (it drops tabs and newlines, so "/\t/evil" means "//evil") and keep only a
  // same-origin path, re-serialised: percent-encoded, no way to smuggle a host or a header break.
  const base = 'http://l2.invalid';
  const url = canParseUrl(next, base) ? new URL(next, base) : null;
  // Resolved first, then judged: "/.//evil" resolves to "//evil", which a browser reads as another host.
  if (!url || url.origin !== base || url.pathname.startsWith('//')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
