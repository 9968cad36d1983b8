// What an area's registry of use-cases is (accounts, security, oauth, …: one per folder here). The root
// (application/use-cases.ts) merges the areas into one flat UseCases and makes each use-case on first use.
import type { Parts } from '../application-services.js';

/**
 * How to make each use-case of an area: from the ports and the services (`p`), and — for a use-case that asks
 * another for its rule (introspection asks verification) — from the registered use-cases `Uses` of the areas
 * before it. `Uses` names them by type (`Pick<AccountUseCases, 'verifyToken'>`), so an area can only use one whose
 * type is known before its own: the areas form no loop, and a use-case is never built inline inside another.
 */
export type AreaRegistry<Uses = unknown> = Readonly<Record<string, (p: Parts, uses: Uses) => unknown>>;

/** The use-cases a registry makes, by name: its type, inferred from the registry itself. */
export type UseCasesOf<R> = {
  readonly [K in keyof R]: R[K] extends (...args: never[]) => infer U ? U : never;
};
