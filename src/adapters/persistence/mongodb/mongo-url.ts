import type { StoreUrl } from '../store-driver.js';

/** `mongodb://…` or `mongodb+srv://…`: a replica set (or a sharded cluster), the database named in the path. */
export const MONGODB_URL: StoreUrl = {
  form: 'mongodb://…',
  names: (url) => url.startsWith('mongodb://') || url.startsWith('mongodb+srv://'),
  // The driver reads the rest (an unreadable URL is refused, in one line, when the store is opened).
  problemWith: () => null,
};
