/** A response read whole: status, headers, body text and (when JSON) the parsed body. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
}

export interface RequestOptions {
  readonly token?: string;
  readonly headers?: Record<string, string>;
  /** Send the body as application/x-www-form-urlencoded instead of JSON. */
  readonly form?: boolean;
  /** A raw body sent as-is (with the content-type from `headers`). */
  readonly raw?: string | Buffer;
}

/** Sends one request to a real server; redirects are never followed so tests can see them. */
export async function request(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined = options.raw;
  if (payload === undefined && body !== undefined) {
    if (options.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body as Record<string, string>).toString();
    } else {
      headers['content-type'] ??= 'application/json';
      payload = JSON.stringify(body);
    }
  }
  const response = await fetch(url, { method, headers, body: payload, redirect: 'manual' });
  const text = await response.text();
  let json: unknown = undefined;
  if (/json/.test(response.headers.get('content-type') ?? '') && text !== '') json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}

/** A client bound to one server. */
export function client(baseUrl: string) {
  return {
    get: (path: string, options?: RequestOptions) => request('GET', baseUrl + path, undefined, options),
    post: (path: string, body?: unknown, options?: RequestOptions) =>
      request('POST', baseUrl + path, body, options),
    send: (method: string, path: string, body?: unknown, options?: RequestOptions) =>
      request(method, baseUrl + path, body, options),
  };
}

/** Registers a user through the API and returns its session token. */
export async function registerUser(
  baseUrl: string,
  username: string,
  password = 'correct horse battery',
): Promise<string> {
  const response = await request('POST', `${baseUrl}/auth/register`, { username, password });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${response.text}`);
  return response.json.access_token as string;
}
