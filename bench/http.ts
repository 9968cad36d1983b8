// The few single requests the bench makes itself (outside the load runs): sign in, attach, read a list page.

async function postJson<T>(url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function getJson<T>(url: string, accept = 'application/json'): Promise<T> {
  const response = await fetch(url, { headers: { accept } });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export interface Tokens {
  /** The session token of `POST /auth/login`. */
  readonly session: string;
  /** A token scoped to `l1Server` by `POST /renderers/attach`. */
  readonly scoped: string;
  readonly l1Server: string;
}

/** Registers `username` when `register` is set, then logs in and attaches to a (never contacted) L1 server. */
export async function signIn(
  base: string,
  credentials: { username: string; password: string },
  register: boolean,
): Promise<Tokens> {
  if (register) await postJson(`${base}/auth/register`, credentials);
  const { access_token: session } = await postJson<{ access_token: string }>(
    `${base}/auth/login`,
    credentials,
  );
  const l1Server = 'http://127.0.0.1:9';
  const { access_token: scoped } = await postJson<{ access_token: string }>(
    `${base}/renderers/attach`,
    { l1_server: l1Server },
    session,
  );
  return { session, scoped, l1Server };
}

/** A JSON list page or outbox page: the links that lead to other pages. */
export interface ListPage {
  readonly items?: unknown[];
  readonly orderedItems?: unknown[];
  readonly next?: string | null;
  readonly prev?: string | null;
  readonly total?: number;
  readonly totalItems?: number;
}

/** The path and query of an absolute link the service emitted (it names PUBLIC_URL, not the test address). */
export function localPath(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
