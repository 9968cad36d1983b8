// The part of autocannon's API the bench uses (autocannon ships no types; @types/autocannon is not needed).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }
  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** Exactly this many requests (spread over the connections), then the run ends; `duration` is ignored. */
    amount?: number;
    timeout?: number;
    requests?: Request[];
  }
  export interface Result {
    latency: Histogram;
    requests: Histogram & { total: number; sent: number };
    /** Bytes received per second; `total`: all of them. */
    throughput: Histogram & { total: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    start: Date;
    finish: Date;
  }
  /** The running load: a promise of the result that also emits every response (responseTime in ms, a float). */
  export interface Instance extends PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
