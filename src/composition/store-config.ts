// STORE and the settings of a store that is a server (a pool of connections): read with the configuration, each
// refusal one line that names the setting — and, for a URL, never the URL itself (it may hold a password).
import { z } from 'zod';
import { DEFAULT_STORE_SETTINGS } from '../adapters/persistence/store-driver.js';
import { ConfigError } from './config-error.js';
import { int } from './env-fields.js';
import { STORE_DRIVERS, STORE_FORMS, storeKindOf, type StoreLocation } from './store-drivers.js';

const DEFAULTS = DEFAULT_STORE_SETTINGS;

/** The environment values of the store (docs/configuration.md). */
export const STORE_ENV = {
  STORE: z
    .string()
    .default('sqlite:./data/l2.sqlite')
    .refine((v) => storeKindOf(v) !== undefined, { message: `must be ${STORE_FORMS}` }),
  // Connections per process; several instances on one database each keep this many at most.
  STORE_POOL_SIZE: int(1, 1000, DEFAULTS.poolSize),
  STORE_CONNECT_TIMEOUT_SECONDS: int(1, 300, DEFAULTS.connectTimeoutSeconds),
  STORE_IDLE_TIMEOUT_SECONDS: int(0, 86_400, DEFAULTS.idleTimeoutSeconds),
  STORE_MAX_LIFETIME_SECONDS: int(0, 86_400 * 7, DEFAULTS.maxLifetimeSeconds),
};

type StoreEnv = { [K in keyof typeof STORE_ENV]: z.output<(typeof STORE_ENV)[K]> };

/** STORE, which the schema found to name a store, once its driver's rules have read it, with the pool settings. */
export function storeLocation(e: StoreEnv): StoreLocation {
  const url = e.STORE;
  const kind = storeKindOf(url);
  if (kind === undefined) throw new ConfigError(`STORE: must be ${STORE_FORMS}`);
  const problem = STORE_DRIVERS[kind].url.problemWith(url);
  if (problem !== null) throw new ConfigError(`STORE: ${problem}`);
  return {
    kind,
    url,
    settings: {
      poolSize: e.STORE_POOL_SIZE,
      connectTimeoutSeconds: e.STORE_CONNECT_TIMEOUT_SECONDS,
      idleTimeoutSeconds: e.STORE_IDLE_TIMEOUT_SECONDS,
      maxLifetimeSeconds: e.STORE_MAX_LIFETIME_SECONDS,
    },
  };
}
