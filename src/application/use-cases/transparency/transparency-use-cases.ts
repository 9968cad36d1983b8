// The transparency area (API.md §8): the log's checkpoint and verifier key, its tiles and entry bundles, inclusion
// proofs, and an activity's stored bytes — all read through the TransparencyLog service.
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { GetActivityEntry } from './get-activity-entry.js';
import { GetCheckpoint } from './get-checkpoint.js';
import { GetLogResource } from './get-log-resource.js';
import { GetVerifierKey } from './get-verifier-key.js';
import { ProveInclusion } from './prove-inclusion.js';

export const TRANSPARENCY_USE_CASES = {
  getCheckpoint: (p) => new GetCheckpoint(p.transparencyLog),
  getVerifierKey: (p) => new GetVerifierKey(p.transparencyLog),
  getLogResource: (p) => new GetLogResource(p.transparencyLog, p.entryBundles, p.caches),
  proveInclusion: (p) => new ProveInclusion(p.transparencyLog),
  getActivityEntry: (p) => new GetActivityEntry(p.transparencyLog),
} satisfies AreaRegistry;

export type TransparencyUseCases = UseCasesOf<typeof TRANSPARENCY_USE_CASES>;
