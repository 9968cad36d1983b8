/** A user's profile (API.md §4.2) in a user record: every field, in this order. */
export interface TransferProfile {
  readonly displayName: string | null;
  readonly bio: string | null;
  readonly avatar: string | null;
  readonly header: string | null;
  readonly fields: readonly { readonly name: string; readonly value: string }[];
  readonly pinned: readonly string[];
  readonly indexable: boolean;
  /** Absent in files exported before follow requests existed: false. */
  readonly manuallyApprovesFollowers: boolean;
  /** The actor ids of the person's other accounts; absent in older files: none. */
  readonly alsoKnownAs?: readonly string[];
  /** Where the account moved, and when it last did (API.md §4.3); absent when it never moved. */
  readonly move?: TransferMove;
}

/** An account's move, times as ISO 8601 strings. */
export interface TransferMove {
  readonly movedTo: string | null;
  readonly movedAt: string | null;
  readonly lastMovedAt: string | null;
  readonly moves: number;
}

/**
 * Every record a store holds, in one form that every store reads and writes: what `l2 store export` writes as JSON
 * Lines and `l2 store import` reads back, so an operator can move from one store to another (SQLite → MongoDB and
 * back) with the log, the keys, the revocations, what protects each account and the queued work intact. Times are
 * ISO 8601 strings; secrets (password hashes, private keys, TOTP secrets) are carried as stored — an export file
 * must be guarded like the store itself. Short-lived challenges (WebAuthn ceremonies, second steps, reset links)
 * and TOTP enrolments not yet confirmed are not carried: an import is a move, and they are minutes old.
 */
export type TransferRecord =
  | {
      readonly record: 'user';
      readonly username: string;
      readonly passwordHash: string;
      readonly publicKeyPem: string;
      readonly privateKeyPem: string;
      readonly createdAt: string;
      readonly deletedAt: string | null;
      readonly disabledAt: string | null;
      /** Absent in files exported before profiles existed: the empty profile. */
      readonly profile?: TransferProfile;
      /** Absent in files exported before profiles existed: 0. */
      readonly profileVersion?: number;
    }
  /** An account's second factor (TOTP), its secret as stored. */
  | {
      readonly record: 'totp_factor';
      readonly username: string;
      readonly secret: string;
      readonly enabledAt: string;
      readonly lastUsedStep: number;
    }
  | {
      readonly record: 'recovery_code';
      readonly username: string;
      readonly codeHash: string;
      readonly usedAt: string | null;
    }
  | {
      readonly record: 'passkey';
      readonly credentialId: string;
      readonly username: string;
      readonly userHandle: string;
      readonly name: string;
      readonly publicKey: string;
      readonly counter: number;
      readonly transports: readonly string[];
      readonly backupEligible: boolean;
      readonly createdAt: string;
      readonly lastUsedAt: string | null;
    }
  /** An entry of an account's history, in the order they were written. */
  | {
      readonly record: 'account_event';
      readonly username: string;
      readonly kind: string;
      readonly detail: string | null;
      readonly at: string;
      readonly address: string | null;
    }
  | { readonly record: 'instance_key'; readonly publicKeyPem: string; readonly privateKeyPem: string }
  | {
      readonly record: 'remote_key';
      readonly keyId: string;
      readonly owner: string;
      readonly publicKeyPem: string;
      readonly fetchedAt: string;
    }
  | {
      readonly record: 'issued_token';
      readonly tokenHash: string;
      readonly jti: string;
      readonly username: string;
      readonly sessionJti: string | null;
      readonly l1Server: string | null;
      readonly issuedAt: string;
      readonly expiresAt: string;
      /** Only for a token of a client metadata document client (API.md §2.5): where its revocation is told. */
      readonly documentClient?: { readonly backchannelLogoutUri: string | null };
    }
  | {
      readonly record: 'revocation';
      readonly tokenHash: string;
      readonly username: string;
      readonly expiresAt: string;
      readonly revokedAt: string;
    }
  | {
      readonly record: 'attachment';
      readonly username: string;
      readonly l1Server: string;
      readonly attachedAt: string;
    }
  | {
      readonly record: 'asset';
      readonly name: string;
      readonly owner: string;
      readonly contentHash: string;
      readonly mediaType: string;
      readonly url: string | null;
      readonly description: string;
      /** Absent in files exported before assets had alt text: null. */
      readonly altText?: string | null;
      /** Absent in files exported before assets could be marked sensitive: false. */
      readonly sensitive?: boolean;
      readonly tags: readonly string[];
      readonly createdAt: string;
      readonly updatedAt: string;
      readonly deletedAt: string | null;
    }
  | {
      readonly record: 'activity';
      readonly idx: number;
      readonly type: string;
      readonly actor: string;
      readonly object: string;
      readonly published: string;
      /**
       * The signed document as the store holds it — its JSON text, the transparency log's entry — carried byte for
       * byte, so that the imported store's log has the same leaves and root (files of versions 1 and 2 carried the
       * parsed document; their text is what JSON.stringify writes of it, as every store wrote it).
       */
      readonly entry: string;
    }
  | {
      /** The transparency log's origin and latest signed checkpoint (its hashes are rebuilt from the entries). */
      readonly record: 'transparency_log';
      readonly origin: string | null;
      readonly checkpoint: { readonly size: number; readonly note: string } | null;
    }
  | {
      readonly record: 'follower';
      readonly username: string;
      readonly actor: string;
      readonly inbox: string;
      readonly sharedInbox: string | null;
      readonly followId: string | null;
      readonly followedAt: string;
    }
  /** A Follow waiting for a locked account's decision (API.md §4.3); its id is kept, the one its routes name. */
  | {
      readonly record: 'follow_request';
      readonly id: string;
      readonly username: string;
      readonly actor: string;
      readonly inbox: string;
      readonly sharedInbox: string | null;
      readonly followId: string | null;
      readonly requestedAt: string;
    }
  /** A person's block of a remote actor (API.md §4.3); its id is kept, the one its unblock route and Block name. */
  | {
      readonly record: 'actor_block';
      readonly id: string;
      readonly username: string;
      readonly actor: string;
      readonly inbox: string;
      readonly createdAt: string;
    }
  /** An operator's domain rule (API.md §4.3); the key of its host is the store's, rebuilt on import. */
  | {
      readonly record: 'domain_rule';
      readonly kind: 'block' | 'allow';
      readonly host: string;
      readonly createdAt: string;
    }
  | {
      readonly record: 'job';
      readonly kind: string;
      readonly payload: unknown;
      readonly lane: string | null;
      readonly state: 'pending' | 'abandoned';
      readonly attempts: number;
      readonly queuedAt: string;
      readonly runAt: string;
      readonly lastError: string | null;
      /** Absent when the job has none, and in files exported before keys existed. */
      readonly replaceKey?: string | null;
    };

export type TransferRecordKind = TransferRecord['record'];

/** The order records are exported in, and must be imported in: what refers to something comes after it. */
export const TRANSFER_ORDER: readonly TransferRecordKind[] = [
  'user',
  'totp_factor',
  'recovery_code',
  'passkey',
  'account_event',
  'instance_key',
  'remote_key',
  'issued_token',
  'revocation',
  'attachment',
  'asset',
  'activity',
  'transparency_log',
  'follower',
  'follow_request',
  'actor_block',
  'domain_rule',
  'job',
];

/** How many records of each kind. */
export type TransferCounts = Record<TransferRecordKind, number>;

export interface StoreTransfer {
  /**
   * Every record of the store, kind by kind in {@link TRANSFER_ORDER}, each kind in the store's own order (users and
   * assets by registration, activities by idx, followers by follow, follow requests by request, actor blocks by block,
   * domain rules by time made then kind and host,
   * jobs by queueing). Leases of jobs are not carried: a job leased when exported is pending again once imported.
   */
  export(): AsyncIterable<TransferRecord>;
  /**
   * Writes the records into this store, which must be empty (no user, asset, activity, job or domain rule;
   * otherwise it throws before writing anything), in batches; derived counts (live users, live assets, per-user
   * totals), the keys of hosts (followers', rules') and the transparency log's hashes are rebuilt from the records. Activities must come in idx order from 0 with no gap; a
   * checkpoint whose root the imported entries do not give, or an origin other than the one the store has pinned,
   * is refused (InvalidTransferError) with nothing written. Returns how many of each kind were written.
   */
  import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts>;
}

/** The store already holds data: an import would mix two histories. */
export class StoreNotEmptyError extends Error {
  constructor(what: string) {
    super(`the store is not empty (it holds ${what}): import only into a new store`);
    this.name = 'StoreNotEmptyError';
  }
}

/** The records break a rule every store relies on (an activity out of order, a kind out of order). */
export class InvalidTransferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTransferError';
  }
}

export const emptyTransferCounts = (): TransferCounts =>
  Object.fromEntries(TRANSFER_ORDER.map((kind) => [kind, 0])) as TransferCounts;
