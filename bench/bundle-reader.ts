// Scenario 11's fat-bundle reader (issue 33), in its own process: `connections` clients, each asking for the next
// path of `paths` in turn, as fast as it can for `seconds` (or, with `once`, until each path was read once). Each read is timed until its body has arrived — or, with `closeAfterHeaders`, the client
// closes the connection once the headers are in, as the audit's clients did, and opens another for the next.
// Usage: node --import tsx bench/bundle-reader.ts '<BundleReadSpec as JSON>'; prints a BundleReadResult as JSON.
import { Agent, request } from 'node:http';
import { LatencyRecorder } from './latency-recorder.js';
import type { BundleReadResult, BundleReadSpec } from './bundle-read-types.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as BundleReadSpec;
const agent = spec.closeAfterHeaders
  ? undefined
  : new Agent({ keepAlive: true, maxSockets: spec.connections });
const latencies = new LatencyRecorder();
const statusCodes: Record<string, number> = {};
let bytes = 0;
let errors = 0;
let next = 0;
const until = performance.now() + spec.seconds * 1000;

/** One read of `path`: resolves with its status once the body is in (or the headers, when closing after them). */
function read(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${spec.base}${path}`,
      { agent: agent ?? false, headers: spec.gzip ? { 'accept-encoding': 'gzip' } : {} },
      (res) => {
        if (spec.closeAfterHeaders) {
          req.destroy();
          return resolve(res.statusCode ?? 0);
        }
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function client(): Promise<void> {
  while (performance.now() < until && !(spec.once && next >= spec.paths.length)) {
    const path = spec.paths[next++ % spec.paths.length]!;
    const began = performance.now();
    try {
      const status = await read(path);
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status === 200) latencies.record(performance.now() - began);
    } catch {
      errors++;
    }
  }
}

const began = performance.now();
await Promise.all(Array.from({ length: spec.connections }, () => client()));
const seconds = (performance.now() - began) / 1000;
agent?.destroy();
const ok = statusCodes['200'] ?? 0;
const result: BundleReadResult = {
  connections: spec.connections,
  seconds,
  ok,
  statusCodes,
  errors,
  perSecond: ok / seconds,
  mibPerSecond: bytes / 2 ** 20 / seconds,
  latencyMs: latencies.percentiles(),
};
console.log(JSON.stringify(result));
