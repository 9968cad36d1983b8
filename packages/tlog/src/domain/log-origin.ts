import { isValidKeyName } from './note-keys.js';

/**
 * The origin of L2's log (API.md §8): PUBLIC_URL without its scheme, followed by `/tlog` —
 * `https://l2.example` gives `l2.example/tlog`. It is the first line of every checkpoint and the
 * name of the signing key, so it must be a signed-note key name (no space, no `+`); null otherwise.
 * Monitors derive it from the URL they are given, as L2 does.
 */
export function logOriginOf(publicUrl: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(.+?)\/*$/i.exec(publicUrl);
  if (!match) return null;
  const origin = `${match[1]}/tlog`;
  return isValidKeyName(origin) ? origin : null;
}

/** Where a log with this origin serves its resources: `<PUBLIC_URL>/tlog/`. */
export const logPrefixOf = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/tlog/`;
