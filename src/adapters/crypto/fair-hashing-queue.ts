import ipaddr from 'ipaddr.js';

/** A job waiting for a core: whose share of the line it holds (null: nobody's), and how to start it. */
interface WaitingJob {
  readonly share: string | null;
  readonly start: () => void;
}

/**
 * Who gets the next core (issue 33, item 4). Jobs run one per core; the rest wait in one line, first come first
 * served, where each client's share is counted so that the hasher can keep one client to its fair part of the
 * line. A compare against the dummy hash (an unknown username) never waits: it runs only on a free core of its own
 * share of the cores, and only while no other job waits — the rest of the cores and the whole line are kept for
 * the passwords of accounts that exist.
 */
export class FairHashingQueue {
  private active = 0;
  private activeDummies = 0;
  private readonly line: WaitingJob[] = [];
  private readonly waitingByShare = new Map<string, number>();

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
    return this.line.length;
  }

  /** Whether a job given now would start at once. */
  get coreFree(): boolean {
    return this.active < this.atOnce && this.line.length === 0;
  }

  /** Jobs of `share` waiting their turn. */
  waitingOf(share: string): number {
    return this.waitingByShare.get(share) ?? 0;
  }

  /** Runs a dummy compare at once when a core of the dummies' share is free; null (nothing run) otherwise. */
  runDummyNow<T>(job: () => Promise<T>): Promise<T> | null {
    if (!this.coreFree || this.activeDummies >= this.dummiesAtOnce) return null;
    this.activeDummies++;
    return this.start(job).finally(() => this.activeDummies--);
  }

  /** Runs the job in its turn: at once on a free core, otherwise after every job that waited before it. */
  run<T>(share: string | null, job: () => Promise<T>): Promise<T> {
    if (this.coreFree) return this.start(job);
    if (share !== null) this.waitingByShare.set(share, this.waitingOf(share) + 1);
    return new Promise<T>((resolve, reject) => {
      this.line.push({
        share,
        start: () => {
          this.left(share);
          this.start(job).then(resolve, reject);
        },
      });
    });
  }

  private async start<T>(job: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      if (this.active < this.atOnce) this.line.shift()?.start();
    }
  }

  private left(share: string | null): void {
    if (share === null) return;
    const waiting = this.waitingOf(share) - 1;
    if (waiting > 0) this.waitingByShare.set(share, waiting);
    else this.waitingByShare.delete(share);
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
