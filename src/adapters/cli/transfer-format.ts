// The file `l2 store export` writes and `l2 store import` reads: JSON Lines — a header, one record per line, and a
// trailer that says how many records came, so that a truncated file is refused rather than half imported.
import { z } from 'zod';
import type { TransferRecord } from '../../application/ports/store-transfer.js';
import { ACCOUNT_EVENT_KINDS } from '../../domain/account-security.js';

export const FORMAT = 'l2-store';
/**
 * 4: after the followers, the follow requests waiting for a locked account's decision (`follow_request`), each
 * person's blocks of remote actors (`actor_block`) and the operator's domain rules (`domain_rule`), issue 37. Files of versions 1 to 3 have none and import with none, as the
 * stores they came from had none.
 * 3: what protects each account — `totp_factor`, `recovery_code`, `passkey` records — and its history
 * (`account_event`), after the users (issue 28). Files of versions 1 and 2 have none of them and read as they always
 * did: accounts protected by their password alone. Also (issue 27): activities carry `entry`, the stored document's
 * exact text (the transparency log's entry), instead of the parsed `document`; a `transparency_log` record after
 * them carries the log's origin and latest checkpoint. Files of versions 1 and 2 read with each document's
 * JSON.stringify text as its entry, which is the text every store wrote of it.
 * 2: users carry `profile` and `profileVersion`, assets `altText` and `sensitive` (issue 25). A version-1 file reads
 * as it always did, those fields taking their defaults; the version moved so that an L2 from before, which would
 * drop the fields it does not know, refuses a newer file rather than import it without them.
 */
export const FORMAT_VERSION = 4;
/** The versions this L2 reads. */
export const READABLE_VERSIONS = [1, 2, 3, 4] as const;

const time = z.string().datetime({ offset: true });
const text = z.string();
const nullableText = z.string().nullable();

/** A profile, every field given (as every store exports one); absent from files of version 1. */
const Profile = z.object({
  displayName: nullableText,
  bio: nullableText,
  avatar: nullableText,
  header: nullableText,
  fields: z.array(z.object({ name: text, value: text })),
  pinned: z.array(text),
  indexable: z.boolean(),
  // Files exported before follow requests existed have none: those accounts approved every follower.
  manuallyApprovesFollowers: z.boolean().default(false),
  // Issue 37: optional, so files written before aliases and moves read as having none.
  alsoKnownAs: z.array(text).optional(),
  move: z
    .object({
      movedTo: nullableText,
      movedAt: time.nullable(),
      lastMovedAt: time.nullable(),
      moves: z.number().int().nonnegative(),
    })
    .optional(),
});

const Record = z.discriminatedUnion('record', [
  z.object({
    record: z.literal('user'),
    username: text,
    passwordHash: text,
    publicKeyPem: text,
    privateKeyPem: text,
    createdAt: time,
    deletedAt: time.nullable(),
    // Files exported before accounts could be disabled have no such field: those accounts were enabled.
    disabledAt: time.nullable().default(null),
    // Optional: files exported before profiles existed import with the empty profile at version 0.
    profile: Profile.optional(),
    profileVersion: z.number().int().nonnegative().optional(),
  }),
  z.object({
    record: z.literal('totp_factor'),
    username: text,
    secret: text,
    enabledAt: time,
    lastUsedStep: z.number().int().nonnegative(),
  }),
  z.object({ record: z.literal('recovery_code'), username: text, codeHash: text, usedAt: time.nullable() }),
  z.object({
    record: z.literal('passkey'),
    credentialId: text,
    username: text,
    userHandle: text,
    name: text,
    publicKey: text,
    counter: z.number().int().nonnegative(),
    transports: z.array(text),
    backupEligible: z.boolean(),
    createdAt: time,
    lastUsedAt: time.nullable(),
  }),
  z.object({
    record: z.literal('account_event'),
    username: text,
    kind: z.enum(ACCOUNT_EVENT_KINDS),
    detail: nullableText,
    at: time,
    address: nullableText,
  }),
  z.object({ record: z.literal('instance_key'), publicKeyPem: text, privateKeyPem: text }),
  z.object({
    record: z.literal('remote_key'),
    keyId: text,
    owner: text,
    publicKeyPem: text,
    fetchedAt: time,
  }),
  z.object({
    record: z.literal('issued_token'),
    tokenHash: text,
    jti: text,
    username: text,
    sessionJti: nullableText,
    l1Server: nullableText,
    issuedAt: time,
    expiresAt: time,
    documentClient: z.object({ backchannelLogoutUri: nullableText }).strict().optional(),
  }),
  z.object({
    record: z.literal('revocation'),
    tokenHash: text,
    username: text,
    expiresAt: time,
    revokedAt: time,
  }),
  z.object({ record: z.literal('attachment'), username: text, l1Server: text, attachedAt: time }),
  z.object({
    record: z.literal('asset'),
    name: text,
    owner: text,
    contentHash: text,
    mediaType: text,
    url: nullableText,
    description: text,
    // Optional: files exported before them import with no alt text, not sensitive.
    altText: nullableText.optional(),
    sensitive: z.boolean().optional(),
    tags: z.array(text),
    createdAt: time,
    updatedAt: time,
    deletedAt: time.nullable(),
  }),
  z
    .object({
      record: z.literal('activity'),
      idx: z.number().int().nonnegative(),
      type: text,
      actor: text,
      object: text,
      published: time,
      // Version 3: the exact text. Versions 1 and 2: the parsed document, written back as JSON text.
      entry: text.optional(),
      document: z.record(z.string(), z.unknown()).optional(),
    })
    .refine((r) => (r.entry === undefined) !== (r.document === undefined), {
      message: 'an activity carries its entry (or, in files before version 3, its document)',
      path: ['entry'],
    })
    .refine((r) => r.entry === undefined || isJsonObjectText(r.entry), {
      message: 'not the JSON text of a document',
      path: ['entry'],
    })
    .transform(({ document, entry, ...rest }) => ({ ...rest, entry: entry ?? JSON.stringify(document) })),
  z.object({
    record: z.literal('transparency_log'),
    origin: nullableText,
    checkpoint: z.object({ size: z.number().int().nonnegative(), note: text }).nullable(),
  }),
  z.object({
    record: z.literal('follower'),
    username: text,
    actor: text,
    inbox: text,
    sharedInbox: nullableText,
    followId: nullableText,
    followedAt: time,
  }),
  // Version 4.
  z.object({
    record: z.literal('follow_request'),
    id: text,
    username: text,
    actor: text,
    inbox: text,
    sharedInbox: nullableText,
    followId: nullableText,
    requestedAt: time,
  }),
  // Version 4.
  z.object({
    record: z.literal('actor_block'),
    id: text,
    username: text,
    actor: text,
    inbox: text,
    createdAt: time,
  }),
  // Version 4. The host is checked on import (the spelling parseRuleHost gives, which every store wrote).
  z.object({
    record: z.literal('domain_rule'),
    kind: z.enum(['block', 'allow']),
    host: text,
    createdAt: time,
  }),
  z.object({
    record: z.literal('job'),
    kind: text,
    payload: z.unknown(),
    lane: nullableText,
    state: z.enum(['pending', 'abandoned']),
    attempts: z.number().int().nonnegative(),
    queuedAt: time,
    runAt: time,
    lastError: nullableText,
    // Optional: files exported before jobs had keys still import.
    replaceKey: nullableText.optional(),
  }),
]);

/** Whether the text is the JSON of an object (an activity's document). */
function isJsonObjectText(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

const Header = z.object({
  format: z.literal(FORMAT),
  version: z.union(READABLE_VERSIONS.map((v) => z.literal(v))),
  exportedAt: time,
});
const Trailer = z.object({ end: z.literal(true), records: z.number().int().nonnegative() });

export const headerLine = (exportedAt: Date): string =>
  JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, exportedAt: exportedAt.toISOString() });
export const trailerLine = (records: number): string => JSON.stringify({ end: true, records });

/** A line of an export file that is not what it must be: the import stops there, having written nothing more. */
export class TransferFileError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'TransferFileError';
  }
}

function parse(line: string, number: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw new TransferFileError(number, 'not JSON');
  }
}

/** The records of an export file's lines, checking the header first and the trailer last. */
export async function* readTransferLines(lines: AsyncIterable<string>): AsyncGenerator<TransferRecord> {
  let number = 0;
  let records = 0;
  let ended = false;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    if (ended) throw new TransferFileError(number, 'more after the end line');
    const value = parse(line, number);
    if (number === 1) {
      if (!Header.safeParse(value).success)
        throw new TransferFileError(
          1,
          `not an ${FORMAT} file of version ${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}`,
        );
      continue;
    }
    const trailer = Trailer.safeParse(value);
    if (trailer.success) {
      if (trailer.data.records !== records)
        throw new TransferFileError(number, `the file says ${trailer.data.records} records, ${records} came`);
      ended = true;
      continue;
    }
    const record = Record.safeParse(value);
    if (!record.success)
      throw new TransferFileError(
        number,
        `not a record: ${record.error.issues[0]?.path.join('.') ?? ''} ${record.error.issues[0]?.message ?? ''}`.trim(),
      );
    records++;
    yield record.data as TransferRecord;
  }
  if (number === 0) throw new TransferFileError(1, 'the file is empty');
  if (!ended) throw new TransferFileError(number, 'the file ends without its end line: it was cut short');
}
