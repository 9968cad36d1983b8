/** Documents fetched at once in all. */
export const MAX_FETCHES = 32;
/**
 * Of those, slots only origins that verified a signature before may use: however many unknown keys a flood names,
 * the peers this service already talks to still get their keys refreshed and their new actors fetched.
 */
export const RESERVED_FOR_KNOWN = 8;
/**
 * Fetches at once from one destination address (an IPv4 address, or an IPv6 /64): every port and every subdomain
 * of one server is another origin, but it is one machine, and one that never answers holds two slots, not all.
 */
export const MAX_FETCHES_PER_DESTINATION = 2;
/** Fetches waiting for one destination at most; beyond it a fetch fails at once instead of queueing. */
export const MAX_WAITING_PER_DESTINATION = 2;
/** Fetches waiting for a slot at most, all destinations together. */
export const MAX_WAITING = 256;

export type Slot = { readonly ok: true; release(): void } | { readonly ok: false; readonly reason: string };

/**
 * The fetch slots of one process: who may fetch now, who waits, and who is turned away at once (the caller answers
 * "try again later"). Turning away before queueing keeps a flood from filling the wait queue that honest fetches
 * need.
 */
export class FetchSlots {
  private running = 0;
  private readonly runningAt = new Map<string, number>();
  private readonly waitingAt = new Map<string, number>();
  private waiting: (() => void)[] = [];

  async acquire(destination: string, known: boolean): Promise<Slot> {
    const queued = (this.runningAt.get(destination) ?? 0) + (this.waitingAt.get(destination) ?? 0);
    if (queued >= MAX_FETCHES_PER_DESTINATION + MAX_WAITING_PER_DESTINATION)
      return { ok: false, reason: 'too many fetches from this server are under way' };
    if (!this.canRun(destination, known)) {
      if (this.waiting.length >= MAX_WAITING)
        return { ok: false, reason: 'too many documents are being fetched' };
      bump(this.waitingAt, destination, 1);
      try {
        do await new Promise<void>((resolve) => this.waiting.push(resolve));
        while (!this.canRun(destination, known));
      } finally {
        bump(this.waitingAt, destination, -1);
      }
    }
    this.running++;
    bump(this.runningAt, destination, 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        bump(this.runningAt, destination, -1);
        // Every waiter looks again: the slot freed may be one only some of them (other destinations) can take.
        const woken = this.waiting;
        this.waiting = [];
        for (const wake of woken) wake();
      },
    };
  }

  private canRun(destination: string, known: boolean): boolean {
    const limit = known ? MAX_FETCHES : MAX_FETCHES - RESERVED_FOR_KNOWN;
    return this.running < limit && (this.runningAt.get(destination) ?? 0) < MAX_FETCHES_PER_DESTINATION;
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const value = (counts.get(key) ?? 0) + by;
  if (value === 0) counts.delete(key);
  else counts.set(key, value);
}
