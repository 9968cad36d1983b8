import type { StoreUrl } from '../store-driver.js';

/** `memory:`: a store inside the service's process, gone when it stops (for tests and demos). */
export const MEMORY_URL: StoreUrl = {
  form: 'memory:',
  names: (url) => url === 'memory:',
  problemWith: () => null,
};
