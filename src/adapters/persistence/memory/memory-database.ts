import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { User } from '../../../domain/user.js';

export interface StoredJob {
  readonly id: number;
  readonly kind: string;
  /** JSON text, so that a caller can neither change a queued payload nor queue what SQLite could not store. */
  readonly payload: string;
  attempts: number;
  readonly queuedAt: number;
  runAt: number;
  state: 'pending' | 'abandoned';
  leaseId: string | null;
  leaseUntil: number | null;
  lastError: string | null;
}

export interface StoredRevocation {
  readonly tokenHash: string;
  readonly username: string;
  readonly expiresAt: number;
  readonly revokedAt: number;
}

/**
 * The tables of the in-memory store, shared by its adapters like one SQLite connection is. Every adapter method
 * runs synchronously between awaits, so each one is a transaction of its own.
 */
export class MemoryDatabase {
  readonly users = new Map<string, User>();
  readonly issuedTokens = new Map<string, IssuedToken>();
  readonly revocations = new Map<string, StoredRevocation>();
  /** Keyed by username, then L1 server; values are epoch milliseconds. */
  readonly attachments = new Map<string, Map<string, number>>();
  readonly jobs = new Map<number, StoredJob>();
  private lastJobId = 0;
  private open = true;

  /** Throws as a closed SQLite connection would, so tests of outages can use the memory store. */
  assertOpen(): void {
    if (!this.open) throw new StoreUnavailableError('The in-memory store is closed.');
  }

  close(): void {
    this.open = false;
  }

  insertJob(job: NewJob, now: Date): void {
    const id = ++this.lastJobId;
    this.jobs.set(id, {
      id,
      kind: job.kind,
      payload: JSON.stringify(job.payload ?? null),
      attempts: 0,
      queuedAt: now.getTime(),
      runAt: now.getTime(),
      state: 'pending',
      leaseId: null,
      leaseUntil: null,
      lastError: null,
    });
  }
}
