// `l2` commands for operators: the outbound queue, the store, the secret.
import { describeCounts, exportStore, importStore } from '../adapters/cli/store-commands.js';
import { keyIdOf } from '../adapters/crypto/jwt-token-codec.js';
import { noticeKeyIdOf } from '../adapters/crypto/notice-signing-keys.js';
import { idTokenKeyIdOf } from '../adapters/crypto/id-token-signing-keys.js';
import {
  idTokenKeyRotationSteps,
  noticeKeyRotationSteps,
  rotationSteps,
} from '../composition/secret-rotation.js';
import { JOB_KINDS } from '../domain/jobs.js';
import { CommandError, kindOf, type Command } from './command.js';

export const OPERATIONS_COMMANDS: readonly Command[] = [
  {
    name: 'queue list',
    usage: 'l2 queue list [--kind KIND] [--limit N]',
    help: `Lists outbound jobs (${JOB_KINDS.join(', ')}) in queue order, 100 by default: id, kind, state (pending, leased: being tried now, abandoned), attempts, when it runs next, its destination and the last error.`,
    operands: 0,
    options: { kind: { type: 'string' }, limit: { type: 'string' } },
    async run(l2, _operands, options) {
      const limit = Number(options.limit ?? 100);
      if (!Number.isInteger(limit) || limit < 1)
        throw new CommandError('--limit: give a whole number of at least 1');
      const jobs = await l2.store.queueAdministration.list({ kind: kindOf(options), limit }, new Date());
      return (
        jobs
          .map((j) =>
            [
              j.id,
              j.kind,
              j.leased ? 'leased' : j.state,
              `${j.attempts} attempts`,
              j.runAt.toISOString(),
              j.lane ?? '-',
              j.lastError ?? '',
            ].join('\t'),
          )
          .join('\n') || 'no jobs'
      );
    },
  },
  {
    name: 'queue retry',
    usage: 'l2 queue retry [--kind KIND]',
    help: 'Puts abandoned jobs (of one kind, with --kind) back in the queue, due now, with 24 hours of retries again — after a destination that refused for good was fixed. The running service sends them within its poll interval.',
    operands: 0,
    options: { kind: { type: 'string' } },
    async run(l2, _operands, options) {
      const retried = await l2.store.queueAdministration.retryAbandoned(kindOf(options), new Date());
      return `put ${retried} abandoned jobs back in the queue`;
    },
  },
  {
    name: 'queue drop',
    usage: 'l2 queue drop [--kind KIND]',
    help: 'Deletes abandoned jobs (of one kind, with --kind). Jobs still pending are never dropped.',
    operands: 0,
    options: { kind: { type: 'string' } },
    async run(l2, _operands, options) {
      return `dropped ${await l2.store.queueAdministration.dropAbandoned(kindOf(options))} abandoned jobs`;
    },
  },
  {
    name: 'secret rotate',
    usage: 'l2 secret rotate',
    help: 'Prints the steps that replace the JWT secret without signing anybody out, the notice signing key without an L1 server refusing a notice, and the ID-token signing key without a client refusing an ID token, naming the keys in use by their ids. It changes nothing itself.',
    operands: 0,
    fromConfig(config) {
      const { noticeKeys, idTokenKeys } = config;
      return [
        rotationSteps(
          keyIdOf(config.jwtSecret),
          config.jwtPreviousSecret && keyIdOf(config.jwtPreviousSecret),
        ),
        noticeKeyRotationSteps(
          noticeKeyIdOf(noticeKeys.current),
          noticeKeys.previous && noticeKeyIdOf(noticeKeys.previous),
        ),
        idTokenKeyRotationSteps(
          idTokenKeyIdOf(idTokenKeys.current),
          idTokenKeys.previous && idTokenKeyIdOf(idTokenKeys.previous),
        ),
      ].join('\n\n');
    },
  },
  {
    name: 'store migrate',
    usage: 'l2 store migrate',
    help: "Brings the store's schema up to date — SQLite migrations, MongoDB collections, indexes and counters — and says where it stands. Idempotent; the server does the same at every start.",
    operands: 0,
    async run(l2) {
      return l2.store.describeSchema();
    },
  },
  {
    name: 'store check',
    usage: 'l2 store check',
    help:
      'Checks that the configured store is fit to serve: it answers (reachable), its schema is the one this L2 ' +
      'makes (migrated: brought up to date first, as the server does at every start), and its transparency log is ' +
      'consistent — every stored activity read, the tree rebuilt and compared with the stored hashes and the ' +
      'latest checkpoint (entries beyond it are signed, as at a start). Exit 0 when all three hold; 1 with the ' +
      'reason in one line otherwise. Safe while the service runs, on any number of instances.',
    operands: 0,
    async run(l2) {
      await l2.store.health.ping();
      const schema = await l2.store.describeSchema();
      const log = l2.services.transparencyLog;
      const origin = await log.pinOrigin();
      if (origin !== log.origin)
        throw new CommandError(
          `the store's transparency log is ${origin}, and PUBLIC_URL ${l2.config.publicUrl} makes it ${log.origin}`,
        );
      try {
        await log.start();
      } catch (error) {
        const health = log.health();
        if (health.state === 'inconsistent')
          throw new CommandError(`the transparency log is inconsistent: ${health.reason}`);
        throw error;
      }
      const size = await l2.store.activities.nextIdx();
      const checkpoint = await log.latest();
      return [
        'reachable: yes',
        `migrated: ${schema}`,
        `transparency log: consistent, ${size} entries, checkpoint of ${checkpoint?.size ?? 0} signed by ${origin}`,
      ].join('\n');
    },
  },
  {
    name: 'store export',
    usage: 'l2 store export [FILE]',
    help:
      'Writes every record of the store (users with their password hashes and private keys, tokens, revocations, ' +
      'attachments, assets, the activity log, followers, keys, queued jobs) as JSON Lines to FILE (created with ' +
      'mode 0600; it must not exist) or to standard output. Guard the file like the store: it holds secrets. The ' +
      'service may keep running: the export is one consistent snapshot.',
    operands: 1,
    async run(l2, [file]) {
      const records = await exportStore(l2.store.transfer, file, new Date());
      // An empty export is most often a mistyped STORE (SQLite creates a new file where it is pointed).
      if (records === 0) console.error('l2: warning: the store holds no records; is STORE the right one?');
      return file && file !== '-' ? `exported ${records} records to ${file}` : '';
    },
  },
  {
    name: 'store import',
    usage: 'l2 store import [FILE]',
    help:
      'Reads an export (FILE, or standard input) into the configured store, which must be new and empty. Stop ' +
      'the service first. On SQLite the import is all or nothing; on MongoDB a failed import leaves a partial ' +
      'database: drop it and import again.',
    operands: 1,
    async run(l2, [file]) {
      return `imported ${describeCounts(await importStore(l2.store.transfer, file))}`;
    },
  },
];
