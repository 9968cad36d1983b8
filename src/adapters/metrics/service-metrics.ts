// The process's Prometheus registry and the service's own outcome counters: verifications and logins by outcome,
// attempts at outbound jobs by kind, outcome and destination class, and gauges read when Prometheus scrapes.
// The HTTP metrics (requests by route, durations, store counts) register on the same registry.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import {
  DESTINATION_CLASSES,
  JOB_OUTCOMES,
  type DestinationClass,
  type JobObserver,
  type JobOutcome,
} from '../../application/ports/job-observer.js';
import type { TransparencyObserver } from '../../application/ports/transparency-observer.js';
import { INBOX_REFUSALS } from '../../application/use-cases/federation/receive-activity.js';
import { JOB_KINDS } from '../../domain/jobs.js';

type Labels = Record<string, string>;

const VERIFY_OUTCOMES = [
  'valid',
  'token_invalid',
  'token_expired',
  'token_revoked',
  'token_scope_mismatch',
  'invalid_request',
  'unavailable',
];
const BUNDLE_REFUSALS = ['rate_limited', 'unavailable'] as const;
const LOGIN_OUTCOMES = ['ok', 'invalid_credentials', 'rate_limited', 'invalid_request', 'unavailable'];

export class ServiceMetrics implements JobObserver, TransparencyObserver {
  /** What GET /metrics serves. Node's own metrics (event-loop lag, heap, GC, handles) are on it, prefixed l2_. */
  readonly registry = new Registry();
  private readonly verifications: Counter<'outcome'>;
  private readonly logins: Counter<'outcome'>;
  private readonly jobAttempts: Counter<'kind' | 'outcome' | 'destination'>;
  private readonly inboxRefusals: Counter<'reason'>;
  private readonly bcryptRefusals: Counter;
  private readonly bcryptSheddings: Counter;
  private readonly bundleRefusals: Counter<'reason'>;
  private readonly tlogInconsistent: Gauge;
  private readonly tlogCheckpointSize: Gauge;
  private readonly tlogCheckSeconds: Gauge;
  private readonly tlogSigned: Counter;
  /** Each counter's children by label values, so that a request hashes no label set. */
  private readonly children = new Map<Counter<string>, Map<string, { inc(): void }>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'l2_', eventLoopMonitoringPrecision: 10 });
    this.verifications = this.counter(
      'l2_verifications_total',
      'POST /auth/verify answers, by outcome: valid, token_invalid, token_expired, token_revoked, token_scope_mismatch, invalid_request, unavailable.',
      ['outcome'],
    );
    this.logins = this.counter(
      'l2_logins_total',
      'POST /auth/login answers, by outcome: ok, invalid_credentials, rate_limited, invalid_request, unavailable.',
      ['outcome'],
    );
    this.jobAttempts = this.counter(
      'l2_job_attempts_total',
      'Attempts at outbound jobs (revocation notices, deliveries), by kind, outcome (delivered, refused, failed, gave_up) and destination class (proven: answering well; untried: new or failing; none).',
      ['kind', 'outcome', 'destination'],
    );
    this.inboxRefusals = this.counter(
      'l2_inbox_refusals_total',
      'Inbox requests refused, by reason: a signature refusal (401: unsigned, malformed, date, digest, host, ' +
        'key_origin, key_unusable, key_unreachable, signature, signer, replay), unavailable (503: fetch slots taken, ' +
        'or an actor not fetched now), ' +
        'a limit (429: key_budget, actor_budget, origin_budget, lane_full), ' +
        'or domain_blocked (403: the actor or key is on a domain L2 does not federate with).',
      ['reason'],
    );
    this.bcryptRefusals = this.counter(
      'l2_bcrypt_refused_total',
      'Password hashes and checks refused with 503 instead of queued: BCRYPT_QUEUE_SECONDS of hashing already waited, the newest check of the client (an IPv4 address, an IPv6 /56) holding most of the line first.',
      [],
    );
    this.bcryptSheddings = this.counter(
      'l2_bcrypt_shed_total',
      "Unknown-username password checks answered 401 without a compare, after a compare's usual time: every core an unknown username may use was busy.",
      [],
    );
    this.bundleRefusals = this.counter(
      'l2_tlog_bundle_refused_total',
      'Entry bundle reads refused because the bundle was not in memory and no build slot was free, by reason: ' +
        'rate_limited (429: the address already had its builds under way) or unavailable (503: the process had).',
      ['reason'],
    );
    this.tlogInconsistent = new Gauge({
      name: 'l2_tlog_inconsistent',
      help: 'Whether the transparency log found the stored activities no longer matching what it signed (1), in which case it signs nothing more and /readyz answers 503; 0 otherwise. The reason is in the error log line "transparency log inconsistent".',
      registers: [this.registry],
    });
    this.tlogCheckpointSize = new Gauge({
      name: 'l2_tlog_checkpoint_size',
      help: 'Entries covered by the latest checkpoint this process signed or checked.',
      registers: [this.registry],
    });
    this.tlogCheckSeconds = new Gauge({
      name: 'l2_tlog_startup_check_seconds',
      help: "How long this process's start-up check of the transparency log (every entry against its hashes and the last checkpoint) took.",
      registers: [this.registry],
    });
    this.tlogSigned = this.counter(
      'l2_tlog_checkpoints_signed_total',
      'Checkpoints this process signed (one covers every write that waited for it).',
      [],
    );
    // Every series exists at 0 from the start: one that first appears at 1 shows no increase() to an alert, so the
    // first failure after a restart would go unseen.
    for (const outcome of VERIFY_OUTCOMES) this.verifications.labels({ outcome }).inc(0);
    for (const outcome of LOGIN_OUTCOMES) this.logins.labels({ outcome }).inc(0);
    for (const reason of INBOX_REFUSALS) this.inboxRefusals.labels({ reason }).inc(0);
    for (const reason of BUNDLE_REFUSALS) this.bundleRefusals.labels({ reason }).inc(0);
    for (const kind of JOB_KINDS)
      for (const outcome of JOB_OUTCOMES)
        for (const destination of DESTINATION_CLASSES)
          this.jobAttempts.labels({ kind, outcome, destination }).inc(0);
  }

  // Arrow properties: the routes pass them around as plain functions.
  readonly verified = (outcome: string): void => this.count(this.verifications, { outcome });

  readonly loggedIn = (outcome: string): void => this.count(this.logins, { outcome });

  readonly inboxRefused = (reason: string): void => this.count(this.inboxRefusals, { reason });
  readonly bcryptRefused = (): void => this.bcryptRefusals.inc();
  readonly bcryptShed = (): void => this.bcryptSheddings.inc();
  readonly bundleRefused = (reason: (typeof BUNDLE_REFUSALS)[number]): void =>
    this.count(this.bundleRefusals, { reason });

  checked(size: number, seconds: number): void {
    this.tlogCheckSeconds.set(seconds);
    this.tlogCheckpointSize.set(size);
  }

  signed(size: number): void {
    this.tlogSigned.inc();
    this.tlogCheckpointSize.set(size);
  }

  inconsistent(): void {
    this.tlogInconsistent.set(1);
  }

  attempted(kind: string, outcome: JobOutcome, destination: DestinationClass): void {
    this.count(this.jobAttempts, { kind, outcome, destination });
  }

  /** A gauge whose values are read when Prometheus scrapes. */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: () => Promise<[Labels, number][]> | [Labels, number][],
  ) {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [labels, value] of await read()) this.set(labels, value);
      },
    });
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private count(counter: Counter<string>, labels: Labels): void {
    let children = this.children.get(counter);
    if (!children) this.children.set(counter, (children = new Map()));
    const key = Object.values(labels).join('|');
    let child = children.get(key);
    if (!child) children.set(key, (child = counter.labels(labels)));
    child.inc();
  }
}
