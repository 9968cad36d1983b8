/** How to make each part of `T` from the others: what a wiring (the composition root, a test) provides. */
export type Factories<T> = { readonly [K in keyof T]: (parts: T) => T[K] };

/**
 * An object whose parts are made on first use, each once, from `factories` — the others reached through the object
 * itself, so parts may use each other in any order and a part nobody uses is never made (a MongoDB counter store
 * before the connection, an HTTP client in a command that sends nothing). A part that needs itself, through any
 * number of others, is a wiring bug: it throws, naming the loop.
 */
export function lazy<T extends object>(factories: Factories<T>): T {
  const made = new Map<PropertyKey, unknown>();
  const making: PropertyKey[] = [];
  const parts = {} as T;
  for (const key of Reflect.ownKeys(factories) as (keyof T & PropertyKey)[]) {
    Object.defineProperty(parts, key, {
      enumerable: true,
      get() {
        if (made.has(key)) return made.get(key);
        if (making.includes(key)) throw new Error(`wiring loop: ${[...making, key].map(String).join(' → ')}`);
        making.push(key);
        try {
          const part = factories[key](parts);
          made.set(key, part);
          return part;
        } finally {
          making.pop();
        }
      },
    });
  }
  return parts;
}
