// A record's one mapping to and from its MongoDB document (docs/adr/0016). `toDocument` writes every field the
// document type declares — a codec that leaves one out does not compile — and `fromDocument` reads a document of any
// version: the fields documents written before them lack are optional in the type it reads (OlderDocument), and
// their defaults are given there and nowhere else.

export interface MongoCodec<T, Written, Read = Written> {
  /** The document of a record; what the store adds itself (a position, an ObjectId) is the writer's. */
  toDocument(value: T): Written;
  fromDocument(doc: Read): T;
}

/** A document as read back: one written before the fields `K` existed lacks them. */
export type OlderDocument<D, K extends keyof D> = Omit<D, K> & Partial<Pick<D, K>>;

/** The fields of a document but `_id`: an upsert's `$setOnInsert`. */
export const withoutId = <D extends { _id?: unknown }>(doc: D): Omit<D, '_id'> => {
  const { _id: _, ...fields } = doc;
  return fields;
};

/** The fields of a document but `fields`: what an update replaces. */
export function without<D extends object, K extends keyof D>(doc: D, fields: readonly K[]): Omit<D, K> {
  const kept = { ...doc };
  for (const field of fields) delete kept[field];
  return kept;
}
