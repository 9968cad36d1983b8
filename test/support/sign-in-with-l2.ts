// "Sign in with L2" driven as an L1 server and a browser would drive it, over real HTTP (API.md §2.3): PKCE made
// the RFC 7636 way, the consent form read from the page L2 rendered and posted back with its CSRF token.
import { createHash, randomBytes } from 'node:crypto';
import { FormBrowser } from './browser.js';
import { request, type HttpResponse } from './http.js';

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** A fresh PKCE pair: 32 random bytes as the verifier, its S256 challenge. */
export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The query of an authorization request by `l1` (its callback under its own path), with overrides. */
export function authorizeQuery(
  l1: string,
  challenge: string,
  overrides: Record<string, string | undefined> = {},
): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: l1,
    redirect_uri: `${l1}/auth/callback`,
    state: randomBytes(16).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return new URLSearchParams(defined).toString();
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of the form that posts to `action` on `page`, as a browser sends them back. */
function hiddenFields(page: string, action: string): Record<string, string> {
  const form = new RegExp(`<form method="post" action="${action}">([\\s\\S]*?)</form>`).exec(page)?.[1];
  if (!form) throw new Error(`no form posting to ${action} on the page: ${page.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[unescapeHtml(name!)] = unescapeHtml(value!);
  return fields;
}

/** The hidden fields of the consent form, as a browser would send them back. */
export const consentFields = (page: string): Record<string, string> => hiddenFields(page, '/oauth/authorize');

/** The hidden fields of L2's logout page (RP-initiated logout), as a browser sends them back. */
export const logoutFields = (page: string): Record<string, string> => hiddenFields(page, '/oauth/logout');

/** A browser with an L2 session: registered (and so signed in) through the register form. */
export async function signedInBrowser(l2: string, username: string, password: string): Promise<FormBrowser> {
  const browser = new FormBrowser(l2);
  await browser.get('/register');
  const registered = await browser.submit('/auth/register', { username, password });
  if (registered.status !== 303)
    throw new Error(`registration failed: ${registered.status} ${registered.text}`);
  return browser;
}

/** Opens the consent page and presses a button; returns L2's answer (a 303 back to the L1 server when all is well). */
export async function decide(
  browser: FormBrowser,
  query: string,
  decision: 'allow' | 'deny',
): Promise<HttpResponse> {
  const page = await browser.get(`/oauth/authorize?${query}`);
  if (page.status !== 200) throw new Error(`no consent page: ${page.status} ${page.text}`);
  return browser.submit('/oauth/authorize', { ...consentFields(page.text), decision });
}

/** The code and state of a 303 back to the L1 server. */
export function callbackOf(response: HttpResponse): URL {
  const location = response.headers.get('location');
  if (response.status !== 303 || !location)
    throw new Error(`no redirect: ${response.status} ${response.text}`);
  return new URL(location);
}

/** POSTs a token request as an L1 server does (a form, no client authentication). */
export function exchange(l2: string, fields: Record<string, string | undefined>): Promise<HttpResponse> {
  const defined = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return request('POST', `${l2}/oauth/token`, Object.fromEntries(defined), { form: true });
}
