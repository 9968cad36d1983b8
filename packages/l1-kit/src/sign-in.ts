import { createHash, randomBytes } from 'node:crypto';
import type { ClientDocument } from './client-document.js';
import type { Discovery } from './discovery.js';
import { L2UnavailableError, SignInError, TokenError, type SignInErrorCode } from './errors.js';
import { isObject } from './http.js';
import type { L2Client } from './l2-client.js';
import { readSignInCookie, sameSecret, SIGN_IN_LIFETIME_SECONDS, signInCookie } from './sign-in-cookie.js';
import type { KitResponse, L2User, SignInResult } from './types.js';
import { localPath, sameServerUrl } from './url.js';

/**
 * "Sign in with L2": the authorization code flow with PKCE (API.md §2.3). The start sends the browser to L2 with a
 * fresh `state` and S256 challenge kept in a short-lived cookie; the callback checks the state against that cookie,
 * exchanges the code with the verifier, and has the token verified like any other — scoped to this server.
 */
export class SignIn {
  constructor(
    private readonly l2: L2Client,
    private readonly discovery: Discovery,
    /** Verification of the token the code is exchanged for (the verifier's, cache rules included). */
    private readonly verify: (token: string) => Promise<L2User>,
    private readonly settings: {
      self: string;
      /** The `client_id`: `self`, or the client document's URL in document mode. */
      clientId: string;
      realm: string;
      callbackPath: string;
      /** Document mode: authenticates the code exchange with `private_key_jwt`. */
      client: ClientDocument | undefined;
    },
  ) {}

  /** The `redirect_uri` L2 sends the browser back to. */
  get redirectUri(): string {
    return new URL(this.settings.self).origin + this.settings.callbackPath;
  }

  /** A `303` to L2's authorization endpoint, with the cookie the callback needs (see `L1Kit.startSignIn`). */
  async start(returnTo: string | undefined): Promise<KitResponse> {
    const metadata = await this.discovery.metadata();
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', this.redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    const cookie = { state, verifier, returnTo: localPath(returnTo) };
    return {
      status: 303,
      headers: {
        Location: url.href,
        'Set-Cookie': this.#cookie(cookie, SIGN_IN_LIFETIME_SECONDS),
        'Cache-Control': 'no-store',
      },
    };
  }

  /** The user, their token and a `303` back to where sign-in started (see `L1Kit.finishSignIn`). */
  async finish(request: { url: string; cookie?: string | undefined }): Promise<SignInResult> {
    const params = new URL(request.url, this.settings.self).searchParams;
    const saved = readSignInCookie(request.cookie);
    const state = params.get('state');
    if (!saved || state === null || !sameSecret(state, saved.state)) {
      throw new SignInError(
        'state_mismatch',
        'This sign-in was not started in this browser, or has expired.',
      );
    }
    const error = params.get('error');
    if (error !== null) {
      throw error === 'access_denied'
        ? new SignInError('access_denied', 'The sign-in was denied at L2.')
        : new SignInError('invalid_callback', `L2 reported ${JSON.stringify(error.slice(0, 64))}.`);
    }
    const code = params.get('code');
    if (code === null || code === '')
      throw new SignInError('invalid_callback', 'The callback carries no code.');
    const token = await this.#exchange(code, saved.verifier);
    const user = await this.verify(token);
    if (!sameServerUrl(user.l1Server, this.settings.clientId)) {
      throw new TokenError('token_scope_mismatch', this.settings.realm);
    }
    return {
      user,
      token,
      response: {
        status: 303,
        headers: {
          Location: saved.returnTo,
          'Set-Cookie': this.cookieClearing(),
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        },
      },
    };
  }

  /** The `Set-Cookie` value that removes the sign-in cookie. */
  cookieClearing(): string {
    return this.#cookie(undefined, 0);
  }

  #cookie(cookie: Parameters<typeof signInCookie>[0], maxAgeSeconds: number): string {
    return signInCookie(cookie, {
      self: this.settings.self,
      callbackPath: this.settings.callbackPath,
      maxAgeSeconds,
    });
  }

  async #exchange(code: string, verifier: string): Promise<string> {
    const metadata = await this.discovery.metadata();
    // A document client proves itself with a fresh assertion; an L1 server URL client names itself, no more.
    const client = this.settings.client
      ? await this.settings.client.authentication(metadata.issuer)
      : { client_id: this.settings.clientId };
    const answer = await this.l2.request(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: this.redirectUri,
        code_verifier: verifier,
        ...client,
      }).toString(),
    });
    const body = answer.json;
    if (answer.status === 200) {
      if (
        !isObject(body) ||
        typeof body.access_token !== 'string' ||
        !/^bearer$/i.test(String(body.token_type))
      ) {
        throw new L2UnavailableError('malformed', 'a token answer without a bearer access_token');
      }
      return body.access_token;
    }
    if (
      (answer.status === 400 || answer.status === 401) &&
      isObject(body) &&
      typeof body.error === 'string'
    ) {
      const known: SignInErrorCode[] = ['invalid_grant', 'invalid_request', 'invalid_client'];
      const code = known.includes(body.error as SignInErrorCode)
        ? (body.error as SignInErrorCode)
        : 'invalid_grant';
      throw new SignInError(code, `L2 refused the code (${body.error.slice(0, 64)}).`);
    }
    throw this.l2.unavailable(answer);
  }
}
