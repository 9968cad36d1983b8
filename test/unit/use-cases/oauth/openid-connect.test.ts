// OpenID Connect on the use-case kit (API.md §2.5): DecideAuthorizationPrompt, the ID token an OpenID code gives,
// and ReadUserInfo.
import { expect } from 'chai';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { parseOpenIdParameters, type OpenIdParameters } from '../../../../src/domain/openid.js';
import { toSeconds } from '../../../../src/domain/token.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { l1, registered, type Kit } from '../accounts/account-fixtures.js';
import { CLIENT, reviewed, tokenRequest } from './oauth-fixtures.js';

const params = (query: Record<string, string>): OpenIdParameters => {
  const parsed = parseOpenIdParameters(query);
  if (!parsed.ok) throw new Error(parsed.error.description);
  return parsed.value;
};

/** A code for an OpenID Connect request of `session`, and its exchange. */
async function exchanged(kit: Kit, scope = 'openid l1', nonce: string | null = 'n-1') {
  const session = await registered(kit);
  const granted = await kit.useCases.grantAuthorizationCode.execute({
    session,
    request: await reviewed(kit),
    openid: { scope, nonce },
  });
  if (!granted.ok) throw new Error(granted.error.type);
  const code = new URL(granted.value.redirectTo).searchParams.get('code')!;
  const answer = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));
  if (!answer.ok) throw new Error(answer.error.detail);
  return { session, answer: answer.value };
}

describe('DecideAuthorizationPrompt', () => {
  it('prompt=none: login_required signed out, consent_required before an Allow, a code once attached', async () => {
    const kit = useCaseKit();
    const decide = kit.useCases.decideAuthorizationPrompt;
    const none = params({ prompt: 'none', scope: 'openid' });
    const input = { params: none, clientId: l1(CLIENT), signedInAfter: null };
    expect(await decide.execute({ ...input, session: null })).to.deep.include({ kind: 'refuse' });
    const session = await registered(kit);
    const before = await decide.execute({ ...input, session: session.claims });
    expect(before.kind === 'refuse' && before.error.error).to.equal('consent_required');
    await kit.useCases.grantAuthorizationCode.execute({ session, request: await reviewed(kit) });
    expect(await decide.execute({ ...input, session: session.claims })).to.deep.equal({ kind: 'grant' });
  });

  it('prompt=login: sign in, with the arrival time; answered by a sign-in at or after it', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    kit.clock.advance(5_000);
    const decide = kit.useCases.decideAuthorizationPrompt;
    const login = { params: params({ prompt: 'login' }), clientId: l1(CLIENT), session: session.claims };
    const arrived = toSeconds(kit.clock.now());
    expect(await decide.execute({ ...login, signedInAfter: null })).to.deep.equal({
      kind: 'sign_in',
      arrivedAt: arrived,
    });
    expect(await decide.execute({ ...login, signedInAfter: session.claims.iat })).to.deep.equal({
      kind: 'ask',
    });
  });
});

describe('ExchangeAuthorizationCode with openid', () => {
  it('answers an ID token (RS256, the ID-token key) for the session that allowed the code, and the scope', async () => {
    const kit = useCaseKit();
    const { session, answer } = await exchanged(kit);
    expect(answer.scope).to.equal('openid l1');
    const header = decodeProtectedHeader(answer.idToken!);
    expect(header).to.deep.equal({ alg: 'RS256', kid: kit.l2.idTokenKeys.kid, typ: 'JWT' });
    expect(decodeJwt(answer.idToken!)).to.deep.include({
      sub: 'alice',
      aud: l1(CLIENT),
      azp: l1(CLIENT),
      auth_time: session.claims.iat,
      sid: session.claims.jti,
      nonce: 'n-1',
    });
    expect(decodeJwt(answer.token)).to.include({ scope: 'openid l1', sid: session.claims.jti });
  });

  it('answers no ID token and scope l1 for a §2.3 code', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const granted = await kit.useCases.grantAuthorizationCode.execute({
      session,
      request: await reviewed(kit),
    });
    const code = new URL(granted.ok ? granted.value.redirectTo : 'x:').searchParams.get('code')!;
    const answer = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));
    expect(answer.ok && answer.value).to.deep.include({ scope: 'l1', idToken: null });
  });
});

describe('ReadUserInfo', () => {
  it('answers sub (and the profile claims with profile) for an openid token; refuses the others', async () => {
    const kit = useCaseKit();
    const { answer, session } = await exchanged(kit, 'openid profile l1');
    const info = await kit.useCases.readUserInfo.execute(answer.token);
    expect(info.ok && info.value).to.deep.include({
      sub: 'alice',
      preferred_username: 'alice',
      name: 'alice',
    });
    expect(await kit.useCases.readUserInfo.execute(session.token)).to.deep.equal({
      ok: false,
      error: { type: 'token_invalid' },
    });
    await kit.detach.execute({ session, l1Server: l1(CLIENT) });
    const revoked = await kit.useCases.readUserInfo.execute(answer.token);
    expect(!revoked.ok && revoked.error.type).to.equal('token_revoked');
  });
});
