/** Why a slot was refused: every slot of the process is taken, or every slot one client may hold. */
export type SlotRefusal = 'everyone' | 'client';

/** A slot held: give it back once the work is done (or failed). */
export interface Slot {
  release(): void;
}

/**
 * A bound on work running at once, in all and per client: a slot is taken before the work starts and given back when
 * it ends, and past either bound the work is refused rather than queued (a client told to come back costs nothing
 * while it waits; a queue would hold its connection and its memory).
 */
export class WorkSlots {
  private running = 0;
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly atOnce: number,
    private readonly perClientAtOnce: number,
  ) {}

  /** A slot for `client`, or why there is none. */
  take(client: string): Slot | SlotRefusal {
    const held = this.perClient.get(client) ?? 0;
    if (held >= this.perClientAtOnce) return 'client';
    if (this.running >= this.atOnce) return 'everyone';
    this.running++;
    this.perClient.set(client, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        const left = (this.perClient.get(client) ?? 1) - 1;
        // Only clients with work under way are remembered.
        if (left === 0) this.perClient.delete(client);
        else this.perClient.set(client, left);
      },
    };
  }

  /** Work under way now. */
  get inUse(): number {
    return this.running;
  }
}
