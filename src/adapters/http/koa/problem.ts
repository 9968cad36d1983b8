/** An RFC 9457 problem that a route wants answered as-is: status, API.md `code`, human detail. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: {
      errors?: { path: string; message: string }[];
      headers?: Record<string, string>;
      [key: string]: unknown;
    } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

/**
 * A problem with what the person sent — a field that fails its rule, a name already taken, a wrong password: a
 * browser form shows it in the form again, with what was typed; anything else becomes an error page.
 */
export class InputProblem extends HttpProblem {
  constructor(...args: ConstructorParameters<typeof HttpProblem>) {
    super(...args);
    this.name = 'InputProblem';
  }
}

/**
 * A refusal of an OAuth endpoint (`POST /oauth/token`, `POST /oauth/introspect`'s 400): answered as RFC 6749 §5.2
 * JSON — `{ "error", "error_description" }`, `application/json`, never an error page — because that is what OAuth
 * client libraries read (they reject `application/problem+json`). `code` is the RFC 6749 error code.
 */
export class OAuthProblem extends HttpProblem {
  constructor(...args: ConstructorParameters<typeof HttpProblem>) {
    super(...args);
    this.name = 'OAuthProblem';
  }
}

/** The RFC 6749 §5.2 body of an OAuth refusal. */
export const oauthErrorBody = (problem: HttpProblem) => ({
  error: problem.code,
  error_description: problem.detail,
});

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const statusTitle = (status: number): string => TITLES[status] ?? 'Error';

/** The JSON body of a problem response. */
export function problemBody(problem: HttpProblem): Record<string, unknown> {
  const { headers: _headers, ...extra } = problem.extra;
  return {
    type: 'about:blank',
    title: statusTitle(problem.status),
    status: problem.status,
    code: problem.code,
    detail: problem.detail,
    ...extra,
  };
}
