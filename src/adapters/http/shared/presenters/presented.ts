// The presenter rule: each JSON success answer is built by one presenter whose return type is the answer's zod
// schema — the schema /openapi.json publishes and the route table checks the answer against outside production —
// so that what a route sends and what it documents are written once, and a field one lacks does not compile.
import type { z } from 'zod';

/** A value as JSON carries it, read-only all the way down: a presenter's answer is only ever serialised. */
export type ReadonlyJson<T> = T extends readonly (infer Item)[]
  ? readonly ReadonlyJson<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyJson<T[K]> }
    : T;

/** What a presenter returns: the JSON answer `Schema` describes (arrays the domain holds read-only pass as they are). */
export type Presented<Schema extends z.ZodType> = ReadonlyJson<z.infer<Schema>>;
