import { expect } from 'chai';
import {
  BACKCHANNEL_LOGOUT_EVENT,
  LOGOUT_TOKEN_LIFETIME_SECONDS,
  logoutTokenClaims,
} from '../../../src/domain/logout-token.js';
import { anIssuedToken, anL1Server, aRevocation, later, T0 } from '../../support/builders.js';

describe('logout tokens (API.md §2.4, OIDC Back-Channel Logout 1.0)', () => {
  const scoped = { l1Server: anL1Server('https://l1.example'), sessionJti: 'session-1' };

  it('claims what API.md lists, expires_at as a NumericDate, and no nonce', () => {
    const token = anIssuedToken(scoped);
    const { notice } = aRevocation(scoped);
    const claims = logoutTokenClaims(notice!, later(5000));
    const iat = Math.floor(later(5000).getTime() / 1000);
    expect(claims).to.deep.equal({
      iss: 'https://l2.example',
      aud: 'https://l1.example',
      iat,
      exp: iat + LOGOUT_TOKEN_LIFETIME_SECONDS,
      jti: notice!.body.token_hash,
      sub: 'alice',
      sid: 'session-1',
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      token_hash: notice!.body.token_hash,
      expires_at: Math.floor(token.expiresAt.getTime() / 1000),
    });
    expect(claims).not.to.have.property('nonce');
  });

  it('keeps its jti on every attempt (signed afresh, one notice)', () => {
    const { notice } = aRevocation(scoped);
    const first = logoutTokenClaims(notice!, T0);
    const retry = logoutTokenClaims(notice!, later(3_600_000));
    expect(retry.jti).to.equal(first.jti);
    expect(retry.iat).to.be.greaterThan(first.iat);
  });

  it('leaves sid out for a notice queued before notices carried one', () => {
    const { notice } = aRevocation(scoped);
    const { sid: _sid, ...older } = notice!;
    expect(logoutTokenClaims(older, T0)).not.to.have.property('sid');
  });
});
