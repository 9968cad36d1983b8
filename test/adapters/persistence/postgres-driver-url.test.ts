// What postgres.js is told of a STORE URL (no server needed): the failover form must never keep a hot standby.
import { expect } from 'chai';
import {
  driverOptions,
  driverUrl,
} from '../../../src/adapters/persistence/postgres/postgres-driver-options.js';
import {
  POSTGRES_URL,
  parsePostgresUrl,
  type PostgresLocation,
} from '../../../src/adapters/persistence/postgres/postgres-url.js';
import { DEFAULT_STORE_SETTINGS } from '../../../src/adapters/persistence/store-driver.js';

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

describe('PostgreSQL: TLS parameters of the URL', () => {
  const settings = DEFAULT_STORE_SETTINGS;
  const optionsFor = (url: string) =>
    driverOptions(parsePostgresUrl(url) as PostgresLocation, settings, () => undefined);

  it('never sends sslrootcert to the server (it refuses it as a setting), system included', () => {
    expect(told('postgres://db1/l2?sslrootcert=system').has('sslrootcert')).to.equal(false);
    expect(told('postgres://db1/l2?sslmode=verify-full&sslrootcert=system').has('sslrootcert')).to.equal(
      false,
    );
  });

  it('reads sslrootcert=system as verify-full against the system authorities', () => {
    const { ssl } = optionsFor('postgres://db1/l2?sslrootcert=system') as {
      ssl: { ca: unknown; rejectUnauthorized: boolean; checkServerIdentity?: unknown };
    };
    expect(ssl.rejectUnauthorized).to.equal(true);
    expect(ssl.checkServerIdentity, 'the host name is checked').to.equal(undefined);
    expect(String(ssl.ca)).to.contain('BEGIN CERTIFICATE');
  });

  it('refuses, in one line, client certificates and an sslmode that would not check the root certificate', () => {
    const problem = (url: string) => POSTGRES_URL.problemWith(url);
    expect(problem('postgres://db1/l2?sslcert=/c.pem&sslkey=/k.pem')).to.match(/sslcert/);
    expect(problem('postgres://db1/l2?sslkey=/k.pem')).to.match(/sslkey/);
    for (const mode of ['disable', 'allow', 'prefer', 'require'])
      expect(problem(`postgres://db1/l2?sslmode=${mode}&sslrootcert=/ca.pem`), mode).to.match(
        /sslrootcert needs sslmode=verify-full or verify-ca/,
      );
    expect(problem('postgres://db1/l2?sslmode=verify-ca&sslrootcert=system')).to.match(
      /sslrootcert=system needs sslmode=verify-full/,
    );
    expect(problem('postgres://db1/l2?sslmode=verify-ca&sslrootcert=/ca.pem')).to.equal(null);
    expect(problem('postgres://db1/l2?sslrootcert=/ca.pem')).to.equal(null);
    expect(problem('postgres://db1/l2?sslmode=verify-full&sslrootcert=system')).to.equal(null);
  });
});

describe('PostgreSQL: the pool size in the URL', () => {
  it('refuses a max that is not a whole number from 1 to 1000, in one line', () => {
    for (const max of ['0', 'ten', '2.5', '1001'])
      expect(POSTGRES_URL.problemWith(`postgres://db1/l2?max=${max}`), max).to.match(/max must be/);
    expect(POSTGRES_URL.problemWith('postgres://db1/l2?max=25')).to.equal(null);
  });
});
