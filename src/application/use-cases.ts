// The application's root: its services and every use-case, made on first use from the ports the composition root
// fills (ADR 8). Each area registers its own use-cases (use-cases/<area>/<area>-use-cases.ts); this file merges them
// into one flat UseCases — what the HTTP routes, the hot paths, the CLI and the tests call, by name — so a new
// use-case touches its class, its line in its area's registry and its route, never this file (docs/architecture.md).
import { DEFAULT_RETRY_POLICY } from '../domain/delivery-policy.js';
import type { ApplicationPorts } from './application-ports.js';
import { SERVICES, type ApplicationServices, type Parts } from './application-services.js';
import { lazy, type Factories } from './lazy.js';
import { DEFAULT_RUNNER_LIMITS } from './services/job-runner.js';
import { ACCOUNT_USE_CASES } from './use-cases/accounts/account-use-cases.js';
import type { AreaRegistry, UseCasesOf } from './use-cases/area-registry.js';
import { FEDERATION_USE_CASES } from './use-cases/federation/federation-use-cases.js';
import { OAUTH_USE_CASES } from './use-cases/oauth/oauth-use-cases.js';
import { OPERATIONS_USE_CASES } from './use-cases/operations/operations-use-cases.js';
import { REGISTRY_USE_CASES } from './use-cases/registry/registry-use-cases.js';
import { SECURITY_USE_CASES } from './use-cases/security/security-use-cases.js';
import { TRANSPARENCY_USE_CASES } from './use-cases/transparency/transparency-use-cases.js';

/** The areas, one registry each. */
const AREAS = {
  accounts: ACCOUNT_USE_CASES,
  security: SECURITY_USE_CASES,
  oauth: OAUTH_USE_CASES,
  registry: REGISTRY_USE_CASES,
  federation: FEDERATION_USE_CASES,
  transparency: TRANSPARENCY_USE_CASES,
  operations: OPERATIONS_USE_CASES,
};
type Areas = typeof AREAS;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every use-case by name, over all areas: a caller names the use-case, never its area. */
export type UseCases = UseCasesOf<Intersection<Areas[keyof Areas]>>;

/** The names two areas both register: one flat namespace holds one use-case a name. */
type NamesInTwoAreas = {
  [A in keyof Areas]: { [B in Exclude<keyof Areas, A>]: keyof Areas[A] & keyof Areas[B] }[Exclude<
    keyof Areas,
    A
  >];
}[keyof Areas];
// Compiles only while there are none: otherwise the error names them.
const _oneAreaAName: [NamesInTwoAreas] extends [never] ? true : NamesInTwoAreas = true;

/**
 * The areas as the root calls them: with every use-case at hand. An area asking for a use-case that UseCases does
 * not hold, or holds with another type, does not compile here.
 */
const WIRED: { readonly [A in keyof Areas]: AreaRegistry<UseCases> } = AREAS;

/** The application over `ports`: its services and use-cases, each made on first use. */
export interface Application {
  readonly services: ApplicationServices;
  readonly useCases: UseCases;
}

export function createApplication(ports: ApplicationPorts): Application {
  // One object holds the ports and the services, so each is reached by name from any other.
  const given = Object.fromEntries(
    Object.keys(ports).map((key) => [key, () => ports[key as keyof ApplicationPorts]]),
  );
  const parts = lazy<Parts>({ ...(given as unknown as Factories<ApplicationPorts>), ...SERVICES });
  // Each use-case is made from the parts and, where it asks another for its rule, from the use-cases themselves.
  const factories = Object.values(WIRED).flatMap((registry) =>
    Object.entries(registry).map(([name, make]) => [name, (useCases: UseCases) => make(parts, useCases)]),
  );
  const useCases = lazy<UseCases>(Object.fromEntries(factories) as Factories<UseCases>);
  return { services: parts, useCases };
}

export type { ApplicationPorts } from './application-ports.js';
export type { ApplicationServices } from './application-services.js';
export { DEFAULT_ENTRY_BUNDLE_LIMITS } from './services/transparency/entry-bundles.js';
export { DEFAULT_RETRY_POLICY, DEFAULT_RUNNER_LIMITS };
