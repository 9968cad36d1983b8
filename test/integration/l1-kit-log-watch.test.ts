// The L1 kit's watch over L2's transparency log: against a real L2 (its log checked, then only what is new), then
// against logs served to misbehave (a fork raised at every pass until someone looks, a shrunk log, a changed tile,
// a log that is down and comes back). Events are awaited, never slept for.
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  watchLog,
  LogWatch,
  type LogFork,
  type LogMisbehaved,
  type LogUnreachable,
  type LogVerified,
  type LogVerifierState,
} from '../../packages/l1-kit/src/index.js';
import { loadVerifierState } from '@l2/tlog/client';
import { MisbehavingLogServer } from '../support/misbehaving-log-server.js';
import { gate } from '../../packages/l1-kit/test/support/servers.js';
import { growServedLog, startServedLog } from '../support/served-log.js';
import type { TestServer } from '../support/test-server.js';
import { testVerifierKey } from '../support/tlog-test-key.js';

/** The next event of this kind the watch raises. */
const next = async <T>(
  watch: LogWatch,
  event: 'verified' | 'fork' | 'misbehaved' | 'unreachable' | 'error',
) => ((await once(watch, event)) as [T])[0];

describe('l1-kit watchLog', function () {
  let dir: string;
  let watch: LogWatch | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'l1-kit-watch-'))));
  afterEach(async () => {
    await watch?.stop();
    watch = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  describe('against a running L2', () => {
    let server: TestServer;
    let key: string;
    before(async () => ({ server, verifierKey: key } = await startServedLog(600)));
    after(() => server?.close());

    it('checks the log at once, again every interval, and only what is new, saving the state `l2 tlog verify` reads', async () => {
      const state = join(dir, 'state.json');
      watch = watchLog({ l2: server.url, verifierKey: key, state, intervalMs: 1_000 });
      const first = await next<LogVerified>(watch, 'verified');
      expect(first).to.include({ kind: 'verified', size: 600, previousSize: null, checkedEntries: 600 });
      expect(first.description).to.match(/^ok: 127\.0\.0\.1:\d+\/tlog size 600 root \S+ \(first check; /);
      expect(loadVerifierState(state)).to.deep.include({ size: 600, rootHash: first.rootHash });
      expect(first.checkpoint).to.equal(await (await fetch(`${server.url}/tlog/checkpoint`)).text());

      await growServedLog(server, 30);
      const second = await next<LogVerified>(watch, 'verified'); // the next periodic pass, by itself
      expect(second).to.include({ size: 630, previousSize: 600 });
      expect(second.checkedEntries, 'only the bundle that changed is read').to.be.below(600);
      expect(loadVerifierState(state)).to.deep.include({ size: 630 });
      expect(watch.state).to.deep.include({ size: 630, rootHash: second.rootHash });
    });

    it('carries on from the state saved by an earlier run, in a store of the caller’s own', async () => {
      const saved: LogVerifierState[] = [];
      const first = new LogWatch({
        l2: server.url,
        verifierKey: key,
        state: { load: () => null, save: (s) => void saved.push(s) },
      });
      expect(await first.checkNow()).to.include({ kind: 'verified', previousSize: null });
      watch = new LogWatch({
        l2: server.url,
        verifierKey: key,
        state: { load: async () => saved.at(-1)!, save: (s) => void saved.push(s) },
      });
      const again = await watch.checkNow();
      expect(again).to.include({ kind: 'verified', previousSize: saved[0]!.size, checkedEntries: 0 });
      expect(saved).to.have.length(2);
    });

    it('refuses, when made, a key of another log, a URL without one, and an interval under a second', () => {
      expect(
        () => new LogWatch({ l2: server.url, verifierKey: testVerifierKey('elsewhere.example/tlog') }),
      ).to.throw(
        TypeError,
        /^watchLog: not checked: the key is for elsewhere\.example\/tlog, the URL's log is 127\.0\.0\.1:\d+\/tlog$/,
      );
      expect(() => new LogWatch({ l2: server.url, verifierKey: 'not a key' })).to.throw(
        TypeError,
        /the verifier key does not parse/,
      );
      expect(() => new LogWatch({ l2: 'ftp://l2.example', verifierKey: key })).to.throw(
        TypeError,
        /not an http\(s\) URL/,
      );
      expect(() => new LogWatch({ l2: server.url, verifierKey: key, intervalMs: 10 })).to.throw(
        TypeError,
        /intervalMs must be at least 1000/,
      );
    });

    it('raises `error` for a saved state of another log, and checks nothing against it', async () => {
      const state = join(dir, 'state.json');
      writeFileSync(
        state,
        JSON.stringify({
          origin: 'elsewhere.example/tlog',
          size: 1,
          rootHash: Buffer.alloc(32).toString('base64'),
          checkpoint: '',
        }),
      );
      watch = watchLog({ l2: server.url, verifierKey: key, state });
      const error = await next<Error>(watch, 'error');
      expect(error.message).to.match(
        /^the saved state is of the log elsewhere\.example\/tlog, not of 127\.0\.0\.1:\d+\/tlog$/,
      );
      expect(loadVerifierState(state)).to.include({ origin: 'elsewhere.example/tlog' });
    });
  });

  describe('against a log that misbehaves', () => {
    let misbehaving: MisbehavingLogServer;
    before(async () => (misbehaving = await new MisbehavingLogServer().start()));
    after(() => misbehaving.close());

    it('raises `fork` with both signed checkpoints, keeps the saved state, and raises it again at every pass', async () => {
      const state = join(dir, 'state.json');
      const honest = misbehaving.serve(300, 'honest');
      watch = watchLog({
        l2: misbehaving.url,
        verifierKey: misbehaving.verifierKey,
        state,
        intervalMs: 1_000,
      });
      expect(await next<LogVerified>(watch, 'verified')).to.include({ size: 300 });
      const saved = readFileSync(state, 'utf8');

      const rewritten = misbehaving.serve(300, 'rewritten');
      const fork = await next<LogFork>(watch, 'fork');
      expect(fork.failure.type).to.equal('fork');
      expect(fork.description).to.match(
        /^MISBEHAVED: FORK: the log signed a tree that does not extend the one of size 300/,
      );
      expect(fork.evidence).to.equal(`signed before:\n${honest}\nsigned now:\n${rewritten}`);
      expect(readFileSync(state, 'utf8'), 'the state is kept').to.equal(saved);

      const again = await next<LogFork>(watch, 'fork'); // the next periodic pass alarms again
      expect(again.evidence).to.equal(fork.evidence);
      expect(watch.state).to.deep.include({ size: 300, checkpoint: honest });
    });

    it('raises `fork` for a larger tree over another history, and for a log that shrank', async () => {
      misbehaving.serve(300, 'honest');
      watch = new LogWatch({ l2: misbehaving.url, verifierKey: misbehaving.verifierKey });
      expect(await watch.checkNow()).to.include({ kind: 'verified', size: 300 });
      misbehaving.serve(700, 'rewritten');
      const grown = (await watch.checkNow()) as LogFork;
      expect(grown.kind).to.equal('fork');
      expect(grown.failure.type).to.equal('fork');
      misbehaving.serve(200, 'honest');
      const shrunk = (await watch.checkNow()) as LogFork;
      expect(shrunk.kind).to.equal('fork');
      expect(shrunk.failure.type).to.equal('tree_shrank');
      expect(shrunk.description).to.match(/^MISBEHAVED: the log shrank below the size 300/);
    });

    it('raises `misbehaved` for a tile its entries do not give', async () => {
      misbehaving.serve(300, 'honest');
      misbehaving.tampered = 'tile/0/000';
      watch = watchLog({ l2: misbehaving.url, verifierKey: misbehaving.verifierKey });
      const misbehaved = await next<LogMisbehaved>(watch, 'misbehaved');
      expect(misbehaved.failure).to.include({ type: 'tile_mismatch', path: 'tile/0/000' });
      expect(misbehaved.description).to.equal('MISBEHAVED: tile/0/000 is not what the entries give');
      expect(watch.state, 'nothing is saved from a log that misbehaved').to.equal(null);
    });

    it('raises `unreachable` while the log is down, keeps its state, and verifies again once it is back', async () => {
      const state = join(dir, 'state.json');
      misbehaving.serve(300, 'honest');
      watch = watchLog({
        l2: misbehaving.url,
        verifierKey: misbehaving.verifierKey,
        state,
        intervalMs: 1_000,
      });
      await next<LogVerified>(watch, 'verified');
      misbehaving.down = true;
      const down = await next<LogUnreachable>(watch, 'unreachable');
      expect(down.description).to.match(
        /^not checked: http:\/\/127\.0\.0\.1:\d+\/tlog\/checkpoint: answered 500$/,
      );
      expect(loadVerifierState(state)).to.include({ size: 300 });
      misbehaving.log.append(new TextEncoder().encode('honest 300'));
      misbehaving.log.sign();
      misbehaving.down = false;
      expect(await next<LogVerified>(watch, 'verified')).to.include({ size: 301, previousSize: 300 });
    });

    it('stops only once the pass under way has ended and raised its event', async () => {
      misbehaving.serve(10, 'honest');
      const slow = gate();
      misbehaving.hold = slow.promise;
      watch = new LogWatch({ l2: misbehaving.url, verifierKey: misbehaving.verifierKey }).start();
      const raised: string[] = [];
      watch.on('verified', () => raised.push('verified'));
      const pass = watch.checkNow(); // joins the first pass, which waits on the slow log
      const stopped = watch.stop().then(() => raised.push('stopped'));
      slow.open();
      await stopped;
      expect(raised).to.deep.equal(['verified', 'stopped']);
      expect(await pass).to.include({ kind: 'verified', size: 10 });
    });
  });
});
