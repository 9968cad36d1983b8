import ipaddr from 'ipaddr.js';

/** A job waiting for a core: how to start it, and how to turn it away if the line must make room. */
interface WaitingJob {
  readonly start: () => void;
  readonly refuse: (error: Error) => void;
}

/** The share of jobs no client holds (new hashes: registrations, password changes). */
const NOBODY = '';

/**
 * Who gets the next core (issue 33, item 4): fair queuing. Jobs run one per core; the rest wait in one line per
 * client share, and a freed core goes to the shares in turn (round robin), so a client with forty checks waiting
 * delays another client's one check by at most one job per core, not forty. When the line is full, the client
 * holding most of it gives up its newest place (`dropNewestOf`) rather than another client being refused.
 *
 * A compare against the dummy hash (an unknown username) never waits: it runs only on a free core of its own share
 * of the cores, and only while no other job waits — the rest of the cores and the whole line are kept for the
 * passwords of accounts that exist.
 */
export class FairHashingQueue {
  private active = 0;
  private activeDummies = 0;
  private total = 0;
  /** Each share's waiting jobs, oldest first; the Map's order is the turn order (a share served moves last). */
  private readonly lines = new Map<string, WaitingJob[]>();

  constructor(
    /** Jobs running at once: one per core. */
    private readonly atOnce: number,
    /** Dummy compares running at once: at most half the cores (at least one), so a real login finds one free. */
    private readonly dummiesAtOnce = Number.isFinite(atOnce) ? Math.ceil(atOnce / 2) : atOnce,
  ) {}

  /** Jobs running now. */
  get running(): number {
    return this.active;
  }

  /** Jobs waiting their turn. */
  get waiting(): number {
    return this.total;
  }

  /** Whether a job given now would start at once. */
  get coreFree(): boolean {
    return this.active < this.atOnce && this.total === 0;
  }

  /** Jobs of `share` (null: nobody's) waiting their turn. */
  waitingOf(share: string | null): number {
    return this.lines.get(share ?? NOBODY)?.length ?? 0;
  }

  /** The client share with the most jobs waiting (the first in turn among equals), or null when none waits. */
  heaviest(): { readonly share: string; readonly waiting: number } | null {
    let found: { share: string; waiting: number } | null = null;
    for (const [share, jobs] of this.lines)
      if (share !== NOBODY && (found === null || jobs.length > found.waiting))
        found = { share, waiting: jobs.length };
    return found;
  }

  /** Turns away the newest waiting job of `share` with `error`, making room in the line. */
  dropNewestOf(share: string, error: Error): void {
    const jobs = this.lines.get(share);
    const dropped = jobs?.pop();
    if (!dropped) return;
    this.total--;
    if (jobs!.length === 0) this.lines.delete(share);
    dropped.refuse(error);
  }

  /** Runs a dummy compare at once when a core of the dummies' share is free; null (nothing run) otherwise. */
  runDummyNow<T>(job: () => Promise<T>): Promise<T> | null {
    if (!this.coreFree || this.activeDummies >= this.dummiesAtOnce) return null;
    this.activeDummies++;
    return this.start(job).finally(() => this.activeDummies--);
  }

  /** Runs the job at once on a free core, or in its share's turn. */
  run<T>(share: string | null, job: () => Promise<T>): Promise<T> {
    if (this.coreFree) return this.start(job);
    return new Promise<T>((resolve, reject) => {
      const key = share ?? NOBODY;
      const jobs = this.lines.get(key) ?? [];
      if (jobs.length === 0) this.lines.set(key, jobs);
      jobs.push({ start: () => this.start(job).then(resolve, reject), refuse: reject });
      this.total++;
    });
  }

  private async start<T>(job: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      if (this.active < this.atOnce) this.next()?.start();
    }
  }

  /** The oldest job of the share whose turn it is; that share then goes to the end of the turns. */
  private next(): WaitingJob | undefined {
    const first = this.lines.entries().next();
    if (first.done) return undefined;
    const [share, jobs] = first.value;
    const job = jobs.shift();
    this.lines.delete(share);
    if (jobs.length > 0) this.lines.set(share, jobs);
    this.total--;
    return job;
  }
}

/**
 * The share of the line one client holds, from the key the login limits count an address under: an IPv4 address
 * as it is, an IPv6 /64 as the /56 around it — one home, which holds 256 /64s; anything else as it is.
 */
export function clientShare(clientAddress: string): string {
  if (!ipaddr.isValidCIDR(clientAddress)) return clientAddress;
  const [address, bits] = ipaddr.parseCIDR(clientAddress);
  if (address.kind() !== 'ipv6' || bits < 56) return clientAddress;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/56`).toString()}/56`;
}
