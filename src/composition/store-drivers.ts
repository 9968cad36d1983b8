// Every store L2 runs on, by the STORE values it takes: the one place a store is named (docs/adr/0015). A line says
// which STORE values are the store's (a light module, read with the configuration) and where its driver is; the
// driver is loaded only once STORE names its store, so a service on SQLite never loads the MongoDB library. A new
// store is its folder under adapters/persistence/, one line here and one contract harness.
import { MEMORY_URL } from '../adapters/persistence/memory/memory-url.js';
import { MONGODB_URL } from '../adapters/persistence/mongodb/mongo-url.js';
import { SQLITE_URL } from '../adapters/persistence/sqlite/sqlite-url.js';
import type { OpenedStore, StoreDriver, StoreUrl } from '../adapters/persistence/store-driver.js';

interface StoreLine {
  readonly url: StoreUrl;
  readonly driver: () => Promise<StoreDriver>;
}

export const STORE_DRIVERS = {
  memory: {
    url: MEMORY_URL,
    driver: async () => (await import('../adapters/persistence/memory/memory-driver.js')).MEMORY_DRIVER,
  },
  sqlite: {
    url: SQLITE_URL,
    driver: async () => (await import('../adapters/persistence/sqlite/sqlite-driver.js')).SQLITE_DRIVER,
  },
  mongodb: {
    url: MONGODB_URL,
    driver: async () => (await import('../adapters/persistence/mongodb/mongo-driver.js')).MONGODB_DRIVER,
  },
} as const satisfies Readonly<Record<string, StoreLine>>;

export type StoreKind = keyof typeof STORE_DRIVERS;

/** Where the data is: the kind of store STORE names, and STORE itself. */
export interface StoreLocation {
  readonly kind: StoreKind;
  readonly url: string;
}

const KINDS = Object.keys(STORE_DRIVERS) as StoreKind[];

/** The kind of store `url` names, if any. */
export const storeKindOf = (url: string): StoreKind | undefined =>
  KINDS.find((kind) => STORE_DRIVERS[kind].url.names(url));

/** Every way STORE may be written, for the line that refuses any other: `memory:, sqlite:<path> or …`. */
export const STORE_FORMS = ((forms: string[]) =>
  `${forms.slice(0, -1).join(', ')}${forms.length > 1 ? ' or ' : ''}${forms.at(-1) ?? ''}`)(
  KINDS.map((kind) => STORE_DRIVERS[kind].url.form),
);

/** The driver of the store STORE names (loaded on first use). */
export const storeDriver = (location: StoreLocation): Promise<StoreDriver> =>
  STORE_DRIVERS[location.kind].driver();

/** Opens the store STORE names: migrations run here; a store that is a server connects on `ready()`. */
export async function openStore(location: StoreLocation): Promise<OpenedStore> {
  return (await storeDriver(location)).open(location.url);
}
