// Every store L2 runs on, by the STORE values it takes: the one place a store is named (docs/adr/0016). A line is a
// store's URL rule (read with the configuration) and its driver — or, for a store whose library is heavy, a loader
// of its driver, run only once STORE names the store, so a service on SQLite never loads the MongoDB library. A new
// store is its folder under adapters/persistence/, one line here and one contract harness.
import { MEMORY_DRIVER } from '../adapters/persistence/memory/memory-driver.js';
import { MEMORY_URL } from '../adapters/persistence/memory/memory-url.js';
import { MONGODB_URL } from '../adapters/persistence/mongodb/mongo-url.js';
import { POSTGRES_DRIVER } from '../adapters/persistence/postgres/postgres-driver.js';
import { POSTGRES_URL } from '../adapters/persistence/postgres/postgres-url.js';
import { SQLITE_DRIVER } from '../adapters/persistence/sqlite/sqlite-driver.js';
import { SQLITE_URL } from '../adapters/persistence/sqlite/sqlite-url.js';
import type {
  OpenedStore,
  StoreDriver,
  StoreSettings,
  StoreUrl,
} from '../adapters/persistence/store-driver.js';

interface StoreLine {
  readonly url: StoreUrl;
  /**
   * The driver, or its loader. (Loaded stores are imported statically on purpose: one module graph, so that a
   * test runner that loads the sources another way still sees one copy of each error class.)
   */
  readonly driver: StoreDriver | (() => Promise<StoreDriver>);
}

export const STORE_DRIVERS = {
  memory: { url: MEMORY_URL, driver: MEMORY_DRIVER },
  sqlite: { url: SQLITE_URL, driver: SQLITE_DRIVER },
  // Imported here (one module graph); its driver library, postgres.js, is loaded only when the store connects.
  postgres: { url: POSTGRES_URL, driver: POSTGRES_DRIVER },
  // The MongoDB driver library holds about 20 MiB: loaded only when STORE names MongoDB.
  mongodb: {
    url: MONGODB_URL,
    driver: async () => (await import('../adapters/persistence/mongodb/mongo-driver.js')).MONGODB_DRIVER,
  },
} as const satisfies Readonly<Record<string, StoreLine>>;

export type StoreKind = keyof typeof STORE_DRIVERS;

/** Where the data is: the kind of store STORE names, STORE itself, and how a store that is a server is reached. */
export interface StoreLocation {
  readonly kind: StoreKind;
  readonly url: string;
  readonly settings?: StoreSettings;
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

/** The driver of the store STORE names (loaded on first use where its line loads it). */
export async function storeDriver(location: StoreLocation): Promise<StoreDriver> {
  const { driver }: StoreLine = STORE_DRIVERS[location.kind];
  return typeof driver === 'function' ? driver() : driver;
}

/** Opens the store STORE names: migrations run here; a store that is a server connects on `ready()`. */
export async function openStore(location: StoreLocation): Promise<OpenedStore> {
  return (await storeDriver(location)).open(location.url, location.settings);
}
