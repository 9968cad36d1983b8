// `l2 store export [FILE]` and `l2 store import [FILE]`: every record of the configured store to JSON Lines and
// back, streamed (a store of millions of records never sits in memory), with progress on a terminal.
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { StoreTransfer, TransferCounts } from '../../application/ports/store-transfer.js';
import { headerLine, readTransferLines, trailerLine } from './transfer-format.js';

/** Writes a line, waiting when the stream's buffer is full. */
async function writeLine(out: Writable, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}

/** A one-line counter on a terminal (stderr), redrawn at most four times a second; silent elsewhere. */
export class Progress {
  private last = 0;
  count = 0;

  constructor(
    private readonly verb: string,
    private readonly terminal: NodeJS.WriteStream = process.stderr,
  ) {}

  tick(): void {
    this.count++;
    const now = Date.now();
    if (!this.terminal.isTTY || now - this.last < 250) return;
    this.last = now;
    this.terminal.write(`\r${this.verb} ${this.count.toLocaleString('en')} records…`);
  }

  done(): void {
    if (this.terminal.isTTY)
      this.terminal.write(`\r${this.verb} ${this.count.toLocaleString('en')} records.\n`);
  }
}

/** Exports to FILE, or to standard output with none or `-`; returns how many records were written. */
export async function exportStore(
  transfer: StoreTransfer,
  file: string | undefined,
  now: Date,
): Promise<number> {
  const out = file && file !== '-' ? createWriteStream(file, { flags: 'wx', mode: 0o600 }) : process.stdout;
  const progress = new Progress('exported');
  await writeLine(out, headerLine(now));
  for await (const record of transfer.export()) {
    await writeLine(out, JSON.stringify(record));
    progress.tick();
  }
  await writeLine(out, trailerLine(progress.count));
  if (out !== process.stdout) {
    out.end();
    await once(out, 'finish');
  }
  progress.done();
  return progress.count;
}

/** Imports FILE (or standard input with none or `-`) into the configured store, which must be empty. */
export async function importStore(
  transfer: StoreTransfer,
  file: string | undefined,
): Promise<TransferCounts> {
  const input = file && file !== '-' ? createReadStream(file) : process.stdin;
  const progress = new Progress('imported');
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  // The iterator is made now, before the store is asked anything: lines the reader reads before an iterator exists
  // are lost, and a store that first waits for its server (PostgreSQL, MongoDB) would then wait for ever.
  const iterator = reader[Symbol.asyncIterator]();
  const lines: AsyncIterable<string> = { [Symbol.asyncIterator]: () => iterator };
  async function* counted() {
    for await (const record of readTransferLines(lines)) {
      progress.tick();
      yield record;
    }
  }
  const counts = await transfer.import(counted());
  progress.done();
  return counts;
}

const PLURALS: Record<keyof TransferCounts, string> = {
  user: 'users',
  totp_factor: 'second factors',
  recovery_code: 'recovery codes',
  passkey: 'passkeys',
  account_event: 'history entries',
  instance_key: 'instance keys',
  remote_key: 'remote keys',
  issued_token: 'issued tokens',
  revocation: 'revocations',
  attachment: 'attachments',
  asset: 'assets',
  activity: 'activities',
  transparency_log: 'transparency logs',
  follower: 'followers',
  follow_request: 'follow requests',
  actor_block: 'actor blocks',
  domain_rule: 'domain rules',
  job: 'jobs',
};

/** "users 3, activities 100,000, …" for the kinds that had any. */
export const describeCounts = (counts: TransferCounts): string =>
  (Object.entries(counts) as [keyof TransferCounts, number][])
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${PLURALS[kind]} ${n.toLocaleString('en')}`)
    .join(', ') || 'nothing';
