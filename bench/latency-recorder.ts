// Exact latency percentiles. autocannon's own histogram counts whole milliseconds, too coarse for a page that
// takes 0.6 ms, so the load generator also records every 2xx response time (a float, in ms) here.

export interface Percentiles {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

export class LatencyRecorder {
  private samples = new Float64Array(1 << 16);
  private size = 0;

  record(ms: number): void {
    if (this.size === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.size++] = ms;
  }

  /** Nearest-rank percentiles; all NaN when nothing was recorded. */
  percentiles(): Percentiles {
    const sorted = this.samples.slice(0, this.size).sort();
    const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      mean: sum / sorted.length,
      p50: rank(50) ?? NaN,
      p90: rank(90) ?? NaN,
      p99: rank(99) ?? NaN,
      max: sorted[sorted.length - 1] ?? NaN,
    };
  }
}
