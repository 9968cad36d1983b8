import { normaliseL1Server, type L1ServerUrl } from '../../../domain/l1-server.js';

/** L1 server URLs as sent → their normalised form: the same few servers call verify again and again. */
const normalised = new Map<string, L1ServerUrl | null>();
const REMEMBERED_URLS = 1_000;

/** The normalised form of an L1 server URL as sent, or null when it is none (remembered: a URL parse each). */
export function normalisedL1Server(url: string): L1ServerUrl | null {
  let known = normalised.get(url);
  if (known === undefined) {
    const result = normaliseL1Server(url);
    known = result.ok ? result.value : null;
    if (normalised.size >= REMEMBERED_URLS) normalised.delete(normalised.keys().next().value!);
    normalised.set(url, known);
  }
  return known;
}
