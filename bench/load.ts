// The load generator: one autocannon run in its own process, so that it never shares the measured service's
// event loop. Usage: node --import tsx bench/load.ts '<LoadSpec as JSON>'; prints one LoadResult as JSON.
import autocannon, { type Request } from 'autocannon';
import { readFileSync } from 'node:fs';
import { LatencyRecorder } from './latency-recorder.js';
import type { LoadResult, LoadSpec } from './load-types.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const sendsJson = spec.body !== undefined || spec.uniqueRegistration === true || spec.uniqueAsset === true;
const bodies = spec.bodiesFile === undefined ? null : readFileSync(spec.bodiesFile, 'utf8').split('\n');
const headers = { ...(sendsJson ? { 'content-type': 'application/json' } : {}), ...spec.headers };

let counter = 0;
/** A fresh, valid username per request (3–30 of [a-z0-9_]): registrations must not collide. */
const uniqueRegistration = (request: Request): Request => ({
  ...request,
  body: JSON.stringify({ username: `r${process.pid}_${(counter++).toString(36)}`, password: spec.password }),
});

/** A fresh asset per request, shaped like the seeded ones (a description, a URL, three tags). */
const uniqueAsset = (request: Request): Request => {
  const name = `b${process.pid}_${(counter++).toString(36)}`;
  return {
    ...request,
    body: JSON.stringify({
      name,
      content_hash: `sha256:${(counter * 2654435761).toString(16).padStart(64, '0').slice(-64)}`,
      media_type: 'image/png',
      url: `https://cdn.example/assets/${name}.png`,
      description: `A bench asset, ${name}: a sunset over the harbour, photographed from the old lighthouse.`,
      tags: ['bench', 'harbour', 'sunset'],
    }),
  };
};

/** The next of the file's bodies, each once (`amount` is their number, so none is asked for twice). */
const nextBody = (request: Request): Request => ({ ...request, body: bodies?.[counter++] ?? '' });

const latencies = new LatencyRecorder();
/**
 * With `amount`, autocannon notices the end only at its next one-second sample, so its duration is rounded up to
 * a whole second: the run's time is then taken from its start to its last answer, here.
 */
let lastAnswerAt = 0;
const instance = autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  ...(spec.amount === undefined ? {} : { amount: spec.amount }),
  timeout: 30,
  requests: [
    {
      method: spec.method ?? 'GET',
      headers,
      ...(spec.body === undefined ? {} : { body: spec.body }),
      ...(spec.uniqueRegistration ? { setupRequest: uniqueRegistration } : {}),
      ...(spec.uniqueAsset ? { setupRequest: uniqueAsset } : {}),
      ...(bodies ? { setupRequest: nextBody } : {}),
    },
  ],
});
const expected = (status: number) =>
  spec.expectedStatus === undefined ? status >= 200 && status < 300 : status === spec.expectedStatus;
const began = performance.now();
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  lastAnswerAt = performance.now();
  if (expected(statusCode)) latencies.record(responseTime);
});
const result = await instance;
const seconds = spec.amount === undefined ? result.duration : (lastAnswerAt - began) / 1000;

const ok =
  spec.expectedStatus === undefined
    ? result['2xx']
    : (result.statusCodeStats[String(spec.expectedStatus)]?.count ?? 0);
const summary: LoadResult = {
  connections: spec.connections,
  seconds,
  ok,
  non2xx: spec.expectedStatus === undefined ? result.non2xx : result['2xx'] + result.non2xx - ok,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
  meanResponseBytes: result.throughput.total / Math.max(1, result['2xx']),
  rps: ok / seconds,
  latencyMs: latencies.percentiles(),
  start: new Date(result.start).toISOString(),
  finish: new Date(result.finish).toISOString(),
};
console.log(JSON.stringify(summary));
