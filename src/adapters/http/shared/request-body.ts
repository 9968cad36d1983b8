// How a request body is read, by the Koa body middleware and by the hot paths alike: the limit, the media type,
// strict JSON, and where a hot path leaves a body it read and then handed to Koa.

/** The most a JSON or form body may take (an inbox takes more: koa/body-middleware.ts). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** A Content-Type's media type, lower-cased, without parameters. */
export function mediaTypeOf(header: string): string {
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Where the hot paths (hot-paths.ts) leave a body they read and then handed over: the stream is spent, its bytes
 * are here. They read only what Content-Length announced, within the limit.
 */
export const PRE_READ_BODY = Symbol('l2.preReadBody');

declare module 'node:http' {
  interface IncomingMessage {
    [PRE_READ_BODY]?: Buffer;
  }
}

/** Drops `__proto__` keys: well-formed JSON that must neither fail nor pollute anything. */
export const withoutProto = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/** A JSON object or array (as the API takes: no bare strings or numbers), `__proto__` keys dropped; null when it is not one. */
export function parseStrictJson(text: string): { value: unknown } | null {
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') return null;
  try {
    // The reviver costs a call per key: only bodies that mention __proto__ pay for it.
    return { value: JSON.parse(text, text.includes('__proto__') ? withoutProto : undefined) as unknown };
  } catch {
    return null;
  }
}
