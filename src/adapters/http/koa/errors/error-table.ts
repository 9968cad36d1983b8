// Error tables: how each error union of the core becomes an HTTP answer — status, code, detail, headers — and what
// /openapi.json says of it, written once per code. A route declares the tables (and the middleware's refusals) it
// answers with; the route table documents exactly those and checks that the route answers with nothing else.
import { HttpProblem, InputProblem, OAuthProblem } from '../problem.js';

/** One refusal a route may answer with, as /openapi.json lists it. */
export interface Answer {
  readonly status: number;
  readonly code: string;
  /** When it happens, in a few words. */
  readonly doc: string;
  /** An OAuth endpoint's refusal, answered as RFC 6749 JSON rather than a problem (OAuthProblem). */
  readonly oauth?: boolean;
}

/** What a route declares it may refuse with: an error table (or part of one), or refusals of the middleware. */
export interface Refusals {
  readonly answers: readonly Answer[];
}

/** Refusals produced elsewhere than by a table (the body parser, the error middleware), documented all the same. */
export const refusals = (...answers: Answer[]): Refusals => ({ answers });

/** How one error of a union becomes an answer. */
export interface Refusal<E, C = void> {
  readonly status: number;
  /** The API.md code, when it is not the error's `type` (a disabled account answers `gone`). */
  readonly code?: string;
  /** When it happens, for /openapi.json; several cases as a list (a route merges the cases of one code). */
  readonly doc: string | readonly string[];
  readonly detail: string | ((error: E, context: C) => string);
  /** Something the person can fix in what they sent: a form shows it again (an InputProblem). */
  readonly input?: boolean | ((error: E) => boolean);
  /** Headers the answer carries (Retry-After, WWW-Authenticate). */
  readonly headers?: (error: E) => Record<string, string>;
  /** Answered as RFC 6749 §5.2 JSON (an OAuthProblem): the refusals of the OAuth endpoints. */
  readonly oauth?: boolean;
  /** Members of the problem body besides the usual five (`errors` naming the fields). */
  readonly members?: (error: E) => Record<string, unknown>;
}

type Coded = { readonly type: string };

/** One entry per member of the union E, keyed by its `type`: a missing or an extra one does not compile. */
export type Entries<E extends Coded, C = void> = {
  readonly [T in E['type']]: Refusal<Extract<E, { readonly type: T }>, C>;
};

export class ErrorTable<E extends Coded, C = void> implements Refusals {
  readonly answers: readonly Answer[];

  constructor(
    private readonly entries: Entries<E, C>,
    answered: readonly E['type'][] = Object.keys(entries) as E['type'][],
  ) {
    this.answers = answered.flatMap((type) => {
      const entry = this.entry(type);
      const cases = typeof entry.doc === 'string' ? [entry.doc] : entry.doc;
      const oauth = entry.oauth === true ? { oauth: true } : {};
      return cases.map((doc) => ({ status: entry.status, code: entry.code ?? type, doc, ...oauth }));
    });
  }

  /** The answer to `error`; `context` is what the detail needs from the request (an asset's name). */
  problem(error: E, context: C): HttpProblem {
    const entry = this.entry(error.type);
    const detail = typeof entry.detail === 'string' ? entry.detail : entry.detail(error, context);
    const input = typeof entry.input === 'function' ? entry.input(error) : entry.input === true;
    const extra = {
      ...entry.members?.(error),
      ...(entry.headers ? { headers: entry.headers(error) } : {}),
    };
    const kind = entry.oauth === true ? OAuthProblem : input ? InputProblem : HttpProblem;
    return new kind(entry.status, entry.code ?? error.type, detail, extra);
  }

  /**
   * The same table, documenting only `types`: for a route that cannot meet the others (the shared inbox has no
   * owner to be missing). Answering with another of them is then a refusal the route does not declare.
   */
  only(...types: E['type'][]): ErrorTable<E, C> {
    return new ErrorTable(this.entries, types);
  }

  private entry(type: E['type']): Refusal<E, C> {
    return (this.entries as unknown as Record<string, Refusal<E, C>>)[type]!;
  }
}

/** The problem with more body members or headers (`valid: false` for /auth/verify, a bearer challenge). */
export function withMembers(problem: HttpProblem, extra: HttpProblem['extra']): HttpProblem {
  return new (problem instanceof InputProblem ? InputProblem : HttpProblem)(
    problem.status,
    problem.code,
    problem.detail,
    { ...problem.extra, ...extra },
  );
}
