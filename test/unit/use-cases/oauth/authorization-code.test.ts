// "Sign in with L2" (API.md §2.3) on the use-case kit: ReviewAuthorizationRequest, GrantAuthorizationCode and
// ExchangeAuthorizationCode.
import { expect } from 'chai';
import { AUTHORIZATION_CODE_LIFETIME_SECONDS } from '../../../../src/domain/oauth.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { isValid, l1, noticesSent, registered } from '../accounts/account-fixtures.js';
import {
  authorizationQuery,
  CLIENT,
  grantedCode,
  REDIRECT_URI,
  reviewed,
  tokenRequest,
} from './oauth-fixtures.js';

describe('ReviewAuthorizationRequest', () => {
  it('reads a request naming an L1 server, a redirect URI under it and an S256 challenge', async () => {
    const kit = useCaseKit();
    expect(await reviewed(kit)).to.deep.include({
      clientId: l1(CLIENT),
      redirectUri: REDIRECT_URI,
      state: 'xyz',
    });
  });

  it('refuses L2 itself as the L1 server, and a server L2 may not talk to', async () => {
    const kit = useCaseKit();
    const self = await kit.useCases.reviewAuthorizationRequest.execute(
      authorizationQuery({ client_id: 'https://l2.example', redirect_uri: 'https://l2.example/cb' }),
    );
    expect(!self.ok && self.error.type).to.equal('invalid_client');

    kit.destinations.refuse = 'a private address';
    const refused = await kit.useCases.reviewAuthorizationRequest.execute(authorizationQuery());
    expect(!refused.ok && refused.error).to.deep.equal({
      type: 'invalid_client',
      detail: 'This L1 server cannot be used: a private address.',
    });
  });

  it('refuses a redirect URI outside the L1 server and a request without PKCE', async () => {
    const kit = useCaseKit();
    const elsewhere = await kit.useCases.reviewAuthorizationRequest.execute(
      authorizationQuery({ redirect_uri: 'https://evil.example/cb' }),
    );
    expect(!elsewhere.ok && elsewhere.error.type).to.equal('invalid_redirect_uri');
    const plain = await kit.useCases.reviewAuthorizationRequest.execute(
      authorizationQuery({ code_challenge_method: 'plain' }),
    );
    expect(!plain.ok && plain.error.type).to.equal('invalid_request');
  });
});

describe('GrantAuthorizationCode', () => {
  it('records the attachment and sends the browser back with a code and the state, never a token', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const granted = await kit.useCases.grantAuthorizationCode.execute({
      session,
      request: await reviewed(kit),
    });

    if (!granted.ok) throw new Error(granted.error.type);
    const back = new URL(granted.value.redirectTo);
    expect(`${back.origin}${back.pathname}`).to.equal(REDIRECT_URI);
    expect([...back.searchParams.keys()].sort()).to.deep.equal(['code', 'state']);
    expect(back.searchParams.get('state')).to.equal('xyz');
    const renderers = await kit.listRenderers.execute(session);
    expect(renderers.ok && renderers.value.map((r) => r.l1Server)).to.deep.equal([l1(CLIENT)]);
  });

  it('refuses a token scoped to an L1 server: only the person’s own session allows another', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const attachedElsewhere = await kit.attach.execute({ session, l1Server: l1('https://other.example') });
    if (!attachedElsewhere.ok) throw new Error(attachedElsewhere.error.type);
    const scoped = await kit.authenticate.authenticate(attachedElsewhere.value.token);
    if (!scoped.ok) throw new Error(scoped.error.type);
    const granted = await kit.useCases.grantAuthorizationCode.execute({
      session: scoped.value,
      request: await reviewed(kit),
    });
    expect(!granted.ok && granted.error.type).to.equal('forbidden');
  });
});

describe('ExchangeAuthorizationCode', () => {
  it('gives the L1 server a token scoped to it for the code and its verifier', async () => {
    const kit = useCaseKit();
    const code = await grantedCode(kit, await registered(kit));

    const exchanged = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));

    if (!exchanged.ok) throw new Error(exchanged.error.type);
    expect(exchanged.value.expiresIn).to.be.above(0);
    const verified = await kit.verify.execute({ token: exchanged.value.token, l1Server: l1(CLIENT) });
    expect(verified.ok && verified.value.claims.username).to.equal('alice');
    const elsewhere = await kit.verify.execute({
      token: exchanged.value.token,
      l1Server: l1('https://other.example'),
    });
    expect(elsewhere.ok).to.equal(false);
  });

  it('revokes the first token when its client presents the code again, and tells the L1 server', async () => {
    const kit = useCaseKit();
    const code = await grantedCode(kit, await registered(kit));
    const first = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));
    if (!first.ok) throw new Error(first.error.type);

    const again = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));

    expect(!again.ok && again.error.type).to.equal('invalid_grant');
    const firstToken = await kit.authenticate.decodeUnexpired(first.value.token);
    if (!firstToken.ok) throw new Error(firstToken.error.type);
    expect(await isValid(kit, firstToken.value)).to.equal(false);
    expect(await noticesSent(kit)).to.deep.equal([firstToken.value.tokenHash]);
  });

  it('ends nothing when someone without the verifier presents a used code', async () => {
    const kit = useCaseKit();
    const code = await grantedCode(kit, await registered(kit));
    const first = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));
    if (!first.ok) throw new Error(first.error.type);

    const stolen = await kit.useCases.exchangeAuthorizationCode.execute(
      tokenRequest(code, { codeVerifier: 'w'.repeat(43) }),
    );

    expect(!stolen.ok && stolen.error.type).to.equal('invalid_grant');
    expect((await kit.verify.execute({ token: first.value.token, l1Server: l1(CLIENT) })).ok).to.equal(true);
  });

  it('refuses a wrong verifier, another redirect URI and a code past its minute, issuing nothing', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const code = await grantedCode(kit, session);
    for (const request of [
      tokenRequest(code, { codeVerifier: 'w'.repeat(43) }),
      tokenRequest(code, { redirectUri: `${CLIENT}/other` }),
    ]) {
      const refused = await kit.useCases.exchangeAuthorizationCode.execute(request);
      expect(!refused.ok && refused.error.type).to.equal('invalid_grant');
    }
    kit.clock.advance(AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000 + 1000);
    const late = await kit.useCases.exchangeAuthorizationCode.execute(tokenRequest(code));
    expect(!late.ok && late.error.type).to.equal('invalid_grant');
    const scoped = await kit.store.issuedTokens.listActiveScoped(
      session.claims.username,
      l1(CLIENT),
      kit.clock.now(),
    );
    expect(scoped).to.deep.equal([]);
  });
});
