/**
 * The outcome of an operation that can fail in an expected way.
 *
 * Same shape as L2's `src/domain/result.ts`, repeated here because this package depends on nothing
 * (the L1 kit ships it): the two types are interchangeable structurally.
 */
export type Result<T, E> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
