import { expect } from 'chai';
import type { RendererAttachments } from '../../../../src/application/ports/renderer-attachments.js';
import { ScopedTokenGrant } from '../../../../src/application/services/scoped-token-grant.js';
import { AttachRenderer } from '../../../../src/application/use-cases/accounts/attach-renderer.js';
import { MAX_TOKENS_PER_L1_SERVER } from '../../../../src/domain/l1-server.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { l1, registered, type Kit } from './account-fixtures.js';

const SERVER = l1('https://l1.example');

/** The scoped tokens of alice for SERVER that still authenticate. */
async function liveTokensFor(kit: Kit): Promise<number> {
  const issued = await kit.store.issuedTokens.listActiveScoped('alice' as never, SERVER, kit.clock.now());
  return (await kit.writer.unrevoked(issued)).length;
}

describe('AttachRenderer', () => {
  it('revokes its own token when a detach removed the attachment while it was issuing (no token outlives it)', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    // The detach runs exactly between the attach's record and its token: it finds no token to revoke.
    const racingDetach: RendererAttachments = {
      attach: async (...args) => {
        const recorded = await kit.store.attachments.attach(...args);
        await kit.detach.execute({ session, l1Server: SERVER });
        return recorded;
      },
      list: (username) => kit.store.attachments.list(username),
      detach: (...args) => kit.store.attachments.detach(...args),
    };
    const grant = new ScopedTokenGrant(
      racingDetach,
      kit.destinations,
      kit.authenticate,
      kit.writer,
      kit.clock,
      kit.store.issuedTokens,
      kit.assetWrites,
    );
    const attach = new AttachRenderer(grant, kit.issuer);

    const result = await attach.execute({ session, l1Server: SERVER });

    expect(result.ok).to.equal(false);
    expect(!result.ok && result.error.type).to.equal('forbidden');
    expect(await kit.store.attachments.list(session.claims.username)).to.deep.equal([]);
    expect(await liveTokensFor(kit)).to.equal(0);
  });

  it(`keeps at most ${MAX_TOKENS_PER_L1_SERVER} live tokens per L1 server: attaching again revokes the oldest`, async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const tokens: string[] = [];
    for (let i = 0; i < MAX_TOKENS_PER_L1_SERVER + 2; i++) {
      const result = await kit.attach.execute({ session, l1Server: SERVER });
      if (!result.ok) throw new Error(result.error.type);
      tokens.push(result.value.token);
      kit.clock.advance(1000);
    }
    expect(await liveTokensFor(kit)).to.equal(MAX_TOKENS_PER_L1_SERVER);
    const verdicts = await Promise.all(
      tokens.map(async (token) => (await kit.authenticate.authenticate(token)).ok),
    );
    expect(verdicts).to.deep.equal([false, false, true, true, true, true, true]);
  });
});
