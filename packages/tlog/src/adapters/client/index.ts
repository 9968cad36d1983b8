/**
 * `@l2/tlog/client`: a monitor of a tiled log over HTTP(S) — fetching its resources, one verifying pass, and the
 * state a monitor keeps between passes. What `l2 tlog verify` and the L1 kit's `watchLog` run.
 */
export * from './http-log-fetch.js';
export * from './log-monitor.js';
export * from './verifier-state-file.js';
