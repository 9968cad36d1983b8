import { expect } from 'chai';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { attached, l1, loggedIn, registered } from './account-fixtures.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('ListSessions', () => {
  it("lists the user's live tokens newest first, marking only the asking one as current", async () => {
    const kit = useCaseKit();
    const first = await registered(kit);
    kit.clock.advance(MINUTE);
    const second = await loggedIn(kit);
    kit.clock.advance(MINUTE);
    const scoped = await attached(kit, first, 'https://a.example');
    await registered(kit, 'bob');

    const listed = await kit.listSessions.execute(second);
    expect(listed.ok).to.equal(true);
    const views = listed.ok ? listed.value : [];
    expect(views.map((v) => [v.jti, v.current, v.l1Server])).to.deep.equal([
      [scoped.claims.jti, false, l1('https://a.example')],
      [second.claims.jti, true, null],
      [first.claims.jti, false, null],
    ]);
    expect(views[1]).to.deep.equal({
      jti: second.claims.jti,
      issuedAt: new Date(second.claims.iat * 1000),
      expiresAt: new Date(second.claims.exp * 1000),
      l1Server: null,
      current: true,
    });
  });

  it('leaves out revoked tokens', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const ended = await loggedIn(kit);
    const scoped = await attached(kit, ended, 'https://a.example');
    const kept = await attached(kit, asking, 'https://b.example');
    await kit.logout.execute({ token: ended.token, everywhere: false });

    const listed = await kit.listSessions.execute(asking);
    const jtis = listed.ok ? listed.value.map((v) => v.jti) : [];
    expect(jtis).to.have.members([asking.claims.jti, kept.claims.jti]);
    expect(jtis).to.not.include(scoped.claims.jti);
    expect(jtis).to.have.length(2);
  });

  it('leaves out expired tokens', async () => {
    const kit = useCaseKit();
    const old = await registered(kit);
    await attached(kit, old, 'https://a.example');
    kit.clock.advance(10 * DAY);
    const recent = await loggedIn(kit);
    kit.clock.advance(21 * DAY);

    const listed = await kit.listSessions.execute(recent);
    expect(listed.ok && listed.value.map((v) => v.jti)).to.deep.equal([recent.claims.jti]);
  });

  it('refuses a scoped token', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const scoped = await attached(kit, session, 'https://a.example');
    expect(await kit.listSessions.execute(scoped)).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
  });
});
