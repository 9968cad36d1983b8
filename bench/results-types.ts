import type { Ceiling } from './ceiling-types.js';
import type { LoadResult } from './load-types.js';
import type { Machine } from './machine.js';
import type { Profile } from './profile.js';
import type { DeepPageResults } from './scenarios/deep-pages.js';
import type { FanOutResults } from './scenarios/fan-out.js';
import type { FederationResults } from './scenarios/federation.js';
import type { PostgresScaleResults } from './scenarios/postgres-scale.js';
import type { ProfileFanOutResults } from './scenarios/profile-fan-out.js';
import type { BadSignatureResults } from './scenarios/bad-signatures.js';
import type { BlockedDomainResults } from './scenarios/blocked-domain.js';
import type { SignInResults } from './scenarios/sign-in.js';
import type { StormResults } from './scenarios/login-storm.js';
import type { FedifyResults, IntrospectionResults } from './scenarios/peers.js';
import type { L1StandardsResults } from './scenarios/l1-standards.js';
import type { StoreSizeResults } from './scenarios/store-size.js';
import type { TokenEndpointResults } from './scenarios/token-endpoint.js';
import type { TransparencyResults } from './scenarios/transparency.js';
import type { VerifyResults } from './scenarios/verify.js';
import type { SeedReport } from './seed-types.js';
import type { Memory } from './servers.js';

/** Everything one run measured: bench/results.json. */
export interface BenchResults {
  readonly profile: Profile;
  readonly machine: Machine;
  readonly startedAt: string;
  finishedAt?: string;
  readonly seconds: { build?: number; total?: number };
  /** Progress, with the machine's 1-minute load average at each step (other processes share the machine). */
  readonly log: { seconds: number; load1: number; message: string }[];
  ceilings?: {
    bcrypt?: Ceiling;
    rsa?: Ceiling;
    rsaSign?: Ceiling;
    rsaVerify?: Ceiling;
    ecdsaVerify?: Ceiling;
    /** RS256 ID tokens signed as L2 signs them (issue 36). */
    idTokenSign?: Ceiling;
  };
  /** Bare Koa "hello" at 64 connections, at the start and at the end of the run. */
  baseline?: { start: LoadResult; end?: LoadResult };
  /** The service on an empty store. */
  empty?: {
    memoryIdle: Memory;
    verify?: VerifyResults;
    storm?: StormResults;
    registration?: LoadResult;
    /** Scenario 12: password and passkey sign-ins. */
    signIn?: SignInResults;
    badSignatures?: BadSignatureResults;
    /** Scenario 10: introspection beside verify, and the L1 kit's cache against the same L2. */
    l1Standards?: L1StandardsResults;
    /** Scenario 10 under `--oidc-only`: its introspection lines alone, without the kit's cache. */
    introspection?: L1StandardsResults['introspection'];
    /** Scenario 14 (issue 36): authorization codes of OpenID Connect requests redeemed at the token endpoint. */
    tokenEndpoint?: TokenEndpointResults;
    memoryAfterLoad?: Memory;
  };
  seed?: SeedReport;
  /** Size of the seeded SQLite file after the final checkpoint. */
  seedFileMiB?: number;
  /** Verify on the empty and the seeded store, alternating (scenario 3). */
  storeSize?: StoreSizeResults;
  /** The service on the seeded store. */
  seeded?: {
    memoryIdle: Memory;
    pages?: DeepPageResults;
    federation?: FederationResults;
    memoryAfterLoad?: Memory;
  };
  /** Scenario 7, each run on a fresh store. */
  fanOut?: FanOutResults;
  /** Scenario 7's followers sent a series of profile changes (issue 25), on a store of its own. */
  profileFanOut?: ProfileFanOutResults;
  /** Scenario 11: the transparency log's cost on writes, its reads, a full verification, the start-up check. */
  transparency?: TransparencyResults;
  /** Scenario 13 (issue 35): the seeded store moved to PostgreSQL, L2 and the bare driver's floor on it. */
  postgres?: PostgresScaleResults;
  /**
   * Scenario 15 (issue 37): a blocked domain's flood of the inbox (read against `empty.badSignatures`, measured just
   * before on the same service), and the block of a domain with 5,000 followers on SQLite and PostgreSQL.
   */
  domains?: BlockedDomainResults;
  /** Scenario 8: other software doing L2's work, each in its own process with nothing else running. */
  peers?: { oidcProvider?: IntrospectionResults; fedify?: FedifyResults };
  rows?: Row[];
}

/** One line of the printed table. */
export interface Row {
  readonly scenario: string;
  readonly metric: string;
  readonly value: string;
  readonly baseline: string;
  /** value ÷ baseline (scenario 8: L2 ÷ the peer, as its metric says), or null where there is nothing to divide by. */
  readonly ratio: number | null;
}
