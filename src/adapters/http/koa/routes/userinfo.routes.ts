// OpenID Connect UserInfo (API.md §2.5, OpenID Connect Core §5.3): who the access token's person is, and the profile
// claims when `profile` was granted. Only a token from /oauth/token with `openid` in its scope is a UserInfo token.
import type { Context } from 'koa';
import type { HttpDependencies } from '../dependencies.js';
import { BODY_ERRORS, REVOCATIONS_UNREADABLE } from '../errors/edge-errors.js';
import { AUTHENTICATION } from '../errors/account-errors.js';
import { USERINFO_REQUEST_ERRORS } from '../errors/oauth-errors.js';
import * as oauth from '../../shared/oauth-schemas.js';
import { json } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';

export const USERINFO_PATH = '/oauth/userinfo';

/** The token of the request: `Authorization: Bearer`, or (POST) the form field `access_token` — never both. */
function userInfoToken(ctx: Context): string {
  const header = ctx.get('Authorization');
  const form = ctx.method === 'POST' ? (ctx.request.body as Record<string, unknown> | undefined) : undefined;
  const field = form?.access_token;
  if (header && field !== undefined)
    throw USERINFO_REQUEST_ERRORS.problem({
      type: 'invalid_request',
      detail: 'Send the access token once: in the Authorization header or in the form, not both.',
    });
  if (field !== undefined) {
    if (typeof field !== 'string' || field === '') throw AUTHENTICATION.problem({ type: 'token_invalid' });
    return field;
  }
  if (!header) throw AUTHENTICATION.problem({ type: 'unauthenticated' });
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) throw AUTHENTICATION.problem({ type: 'malformed_authorization' });
  return match[1];
}

export function userInfoRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const answer = async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const info = await deps.useCases.readUserInfo.execute(userInfoToken(ctx));
    if (!info.ok) throw AUTHENTICATION.problem(info.error);
    ctx.body = info.value;
  };
  const doc = {
    summary: 'OpenID Connect UserInfo: the person of an access token whose scope has openid',
    description:
      '`sub`, and with `profile` granted preferred_username, name, picture (when there is an avatar) and profile. ' +
      'The token as `Authorization: Bearer`, or for POST the form field `access_token` (not both: 400). A session ' +
      'token, a renderer-attach token or a token without openid: 401 with `WWW-Authenticate: Bearer error=' +
      '"invalid_token"`. Revocations are checked as /auth/verify checks them.',
    responses: { 200: json(oauth.UserInfoResponse, 'The claims') },
    refusals: [AUTHENTICATION, USERINFO_REQUEST_ERRORS, REVOCATIONS_UNREADABLE],
  };
  routes.get(USERINFO_PATH, doc, answer);
  routes.post(
    USERINFO_PATH,
    {
      ...doc,
      request: {
        body: {
          required: false,
          content: { 'application/x-www-form-urlencoded': { schema: oauth.UserInfoForm } },
        },
      },
      refusals: [...doc.refusals, BODY_ERRORS],
    },
    answer,
  );
}
