// IntrospectToken (API.md §2.2, RFC 7662) on the use-case kit: active exactly when /auth/verify would accept the
// token from the L1 server named as `resource`, and a budget per address of tokens that do not verify.
import { expect } from 'chai';
import { NO_CLIENT_CREDENTIALS } from '../../../../src/domain/client-authentication.js';
import {
  KIT_ADDRESS,
  KIT_INTROSPECTION_FAILURES_PER_ADDRESS,
  useCaseKit,
} from '../../../support/use-case-kit.js';
import { attached, registered, type Kit } from '../accounts/account-fixtures.js';

const introspect = (kit: Kit, token: string, resource: string | null = null, clientAddress = KIT_ADDRESS) =>
  kit.useCases.introspectToken.execute({ token, resource, client: NO_CLIENT_CREDENTIALS, clientAddress });

describe('IntrospectToken', () => {
  it('answers a live session token active, with its claims', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const answer = await introspect(kit, session.token);
    expect(answer.ok && answer.value?.claims).to.deep.equal(session.claims);
    expect(answer.ok && answer.value?.tokenHash).to.equal(session.tokenHash);
  });

  it('answers a scoped token active for its own L1 server only, as /auth/verify would', async () => {
    const kit = useCaseKit();
    const scoped = await attached(kit, await registered(kit), 'https://l1.example');
    const own = await introspect(kit, scoped.token, 'https://l1.example/');
    expect(own.ok && own.value?.claims.username).to.equal('alice');
    expect(await introspect(kit, scoped.token, 'https://other.example')).to.deep.equal({
      ok: true,
      value: null,
    });
    expect(await introspect(kit, scoped.token, 'not a url')).to.deep.equal({ ok: true, value: null });
  });

  it('answers a revoked token inactive, saying nothing more', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    await kit.logout.execute({ token: session.token, everywhere: false });
    expect(await introspect(kit, session.token)).to.deep.equal({ ok: true, value: null });
  });

  it(`refuses, past ${KIT_INTROSPECTION_FAILURES_PER_ADDRESS} tokens from one address that do not verify, the next such token from there (no scanning)`, async () => {
    const kit = useCaseKit();
    for (let i = 0; i < KIT_INTROSPECTION_FAILURES_PER_ADDRESS; i++)
      expect(await introspect(kit, `guess-${i}`)).to.deep.equal({ ok: true, value: null });

    const refused = await introspect(kit, 'guess-again');
    expect(!refused.ok && refused.error.type).to.equal('rate_limited');
    expect(
      !refused.ok && refused.error.type === 'rate_limited' && refused.error.retryAfterSeconds,
    ).to.be.above(0);
    expect(await introspect(kit, 'guess-again', null, '192.0.2.99')).to.deep.equal({ ok: true, value: null });
  });
});
