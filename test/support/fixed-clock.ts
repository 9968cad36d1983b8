import type { Clock } from '../../src/application/ports/clock.js';
import type { IdGenerator } from '../../src/application/ports/id-generator.js';

/** A clock that moves only when the test says so. */
export class FixedClock implements Clock {
  constructor(private current: Date) {}

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }

  set(date: Date): void {
    this.current = new Date(date);
  }
}

/** Ids `id-1`, `id-2`, … and a fixed "random" number, so outcomes repeat exactly. */
export class SequentialIds implements IdGenerator {
  private n = 0;

  constructor(private readonly fixedRandom = 0.5) {}

  newId(): string {
    return `id-${++this.n}`;
  }

  random(): number {
    return this.fixedRandom;
  }
}
