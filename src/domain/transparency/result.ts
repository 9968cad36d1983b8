/**
 * The outcome of an operation that can fail in an expected way.
 *
 * Same shape as `src/domain/result.ts`, repeated here because this folder must compile on its own
 * (the L1 kit builds the same files): the two types are interchangeable structurally.
 */
export type Result<T, E> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
