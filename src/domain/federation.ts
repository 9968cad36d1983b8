import { err, ok, type Result } from './result.js';
import { canParseUrl } from './url-parse.js';

/** The parts of an incoming activity the inbox acts on; the rest of the document is ignored. */
export interface IncomingActivity {
  readonly id: string | null;
  readonly type: string;
  /** The actor's id. */
  readonly actor: string;
  readonly object: unknown;
}

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An absolute http(s) URL, or null. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !canParseUrl(value)) return null;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' ? value : null;
}

/** The id of a link or an embedded object (`"https://…"` or `{ "id": "https://…" }`), or null. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return httpUrl(value);
  return isRecord(value) ? httpUrl(value.id) : null;
}

/** The `type` of an embedded object, or null (a bare link has none). */
export function typeOf(value: unknown): string | null {
  return isRecord(value) && typeof value.type === 'string' ? value.type : null;
}

/** Reads what the inbox needs from a parsed JSON body: an object with a `type` and an `actor` (a URL or `{id}`). */
export function parseIncomingActivity(json: unknown): Result<IncomingActivity, string> {
  if (!isRecord(json)) return err('The body must be a JSON object (an activity).');
  const { type } = json;
  if (typeof type !== 'string' || type === '') return err('type: an activity needs a type.');
  const actor = idOf(json.actor);
  if (actor === null) return err('actor: an activity needs an actor (an http(s) URL).');
  // An id on another server than the actor's is not the actor's to give (the activity could then be confused
  // with, or undone as, somebody else's): it is treated as absent.
  const id = idOf(json.id);
  return ok({ id: id !== null && sameOrigin(id, actor) ? id : null, type, actor, object: json.object });
}

/** Whether two URLs share scheme, host and port. */
export function sameOrigin(a: string, b: string): boolean {
  return canParseUrl(a) && canParseUrl(b) && new URL(a).origin === new URL(b).origin;
}

/** The Accept of a Follow (§5), built with the other answers to a Follow. */
export { acceptDocument } from './follow-documents.js';
