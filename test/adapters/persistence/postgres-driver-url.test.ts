// What postgres.js is told of a STORE URL (no server needed): the failover form must never keep a hot standby.
import { expect } from 'chai';
import { driverUrl } from '../../../src/adapters/persistence/postgres/postgres-driver-options.js';
import {
  parsePostgresUrl,
  type PostgresLocation,
} from '../../../src/adapters/persistence/postgres/postgres-url.js';

function told(url: string): URLSearchParams {
  const location = parsePostgresUrl(url) as PostgresLocation;
  expect(location).to.have.property('hosts');
  const sent = driverUrl(url, location);
  return new URL(sent.replace(/^postgres(ql)?:\/\/[^/]*/, 'http://h')).searchParams;
}

describe('PostgreSQL: the URL the driver reads', () => {
  it('asks read-write as primary, which a hot standby (in_hot_standby on) never passes', () => {
    const query = told('postgres://l2:secret@db1:5432,db2:5432/l2?target_session_attrs=read-write');
    expect(query.get('target_session_attrs')).to.equal('primary');
  });

  it('keeps the other session attributes as written, and drops any (libpq default, refused by the driver)', () => {
    expect(told('postgres://db1,db2/l2?target_session_attrs=primary').get('target_session_attrs')).to.equal(
      'primary',
    );
    expect(
      told('postgres://db1,db2/l2?target_session_attrs=prefer-standby').get('target_session_attrs'),
    ).to.equal('prefer-standby');
    expect(told('postgres://db1,db2/l2?target_session_attrs=any').has('target_session_attrs')).to.equal(
      false,
    );
  });

  it('leaves a URL without a query as it is', () => {
    const url = 'postgres://l2@db1:5432/l2';
    expect(driverUrl(url, parsePostgresUrl(url) as PostgresLocation)).to.equal(url);
  });
});
