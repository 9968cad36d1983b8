import { expect } from 'chai';
import { useCaseKit } from '../../../support/use-case-kit.js';
import {
  attached,
  expectNothingQueued,
  isValid,
  loggedIn,
  noticesSent,
  registered,
} from './account-fixtures.js';

const NOT_FOUND = { ok: false, error: { type: 'not_found' } };

describe('RevokeSession', () => {
  it('revokes another session of mine with the scoped tokens it made, and notifies their L1 servers', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const other = await loggedIn(kit);
    const a = await attached(kit, other, 'https://a.example');
    const b = await attached(kit, other, 'https://b.example');
    const mine = await attached(kit, asking, 'https://a.example');

    expect(await kit.revokeSession.execute({ session: asking, jti: other.claims.jti })).to.deep.equal({
      ok: true,
      value: { revoked: 3 },
    });
    for (const token of [other, a, b]) expect(await isValid(kit, token)).to.equal(false);
    expect(await isValid(kit, asking)).to.equal(true);
    expect(await isValid(kit, mine)).to.equal(true);
    expect((await noticesSent(kit)).sort()).to.deep.equal([a.tokenHash, b.tokenHash].sort());
  });

  it('revokes one scoped token by its jti, leaving its session and siblings alone', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const a = await attached(kit, asking, 'https://a.example');
    const b = await attached(kit, asking, 'https://b.example');

    expect(await kit.revokeSession.execute({ session: asking, jti: a.claims.jti })).to.deep.equal({
      ok: true,
      value: { revoked: 1 },
    });
    expect(await isValid(kit, a)).to.equal(false);
    expect(await isValid(kit, b)).to.equal(true);
    expect(await isValid(kit, asking)).to.equal(true);
    expect(await noticesSent(kit)).to.deep.equal([a.tokenHash]);
  });

  it("answers not_found for another user's jti, revoking nothing", async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const bob = await registered(kit, 'bob');
    const bobScoped = await attached(kit, bob, 'https://a.example');

    for (const jti of [bob.claims.jti, bobScoped.claims.jti]) {
      expect(await kit.revokeSession.execute({ session: asking, jti })).to.deep.equal(NOT_FOUND);
    }
    expect(await isValid(kit, bob)).to.equal(true);
    expect(await isValid(kit, bobScoped)).to.equal(true);
    await expectNothingQueued(kit);
  });

  it('answers not_found for an unknown jti or one already revoked, revoking nothing more', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const other = await loggedIn(kit);
    const scoped = await attached(kit, asking, 'https://a.example');
    await kit.revokeSession.execute({ session: asking, jti: other.claims.jti });

    expect(await kit.revokeSession.execute({ session: asking, jti: 'no-such-jti' })).to.deep.equal(NOT_FOUND);
    expect(await kit.revokeSession.execute({ session: asking, jti: other.claims.jti })).to.deep.equal(
      NOT_FOUND,
    );
    expect(await isValid(kit, asking)).to.equal(true);
    expect(await isValid(kit, scoped)).to.equal(true);
    await expectNothingQueued(kit);
  });

  it('refuses a scoped token, revoking nothing', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const other = await loggedIn(kit);
    const scoped = await attached(kit, asking, 'https://a.example');

    for (const jti of [other.claims.jti, scoped.claims.jti]) {
      expect(await kit.revokeSession.execute({ session: scoped, jti })).to.deep.equal({
        ok: false,
        error: { type: 'forbidden' },
      });
    }
    for (const token of [asking, other, scoped]) expect(await isValid(kit, token)).to.equal(true);
    await expectNothingQueued(kit);
  });
});
