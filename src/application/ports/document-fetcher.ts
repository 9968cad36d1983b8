/**
 * What is kept of a fetched document: the fields an actor or key lookup reads, nothing else, so that a 1 MiB
 * answer costs its parse and then a few kilobytes.
 */
export interface FetchedDocument {
  readonly id?: string;
  readonly type?: string;
  readonly inbox?: string;
  readonly sharedInbox?: string;
  readonly owner?: string;
  readonly publicKeyPem?: string;
  readonly publicKey: readonly {
    readonly id?: string;
    readonly owner?: string;
    readonly publicKeyPem?: string;
  }[];
  /** The http(s) URLs of `alsoKnownAs` (at most 16; none when absent). */
  readonly alsoKnownAs?: readonly string[];
  /** `movedTo`, when it is an http(s) URL. */
  readonly movedTo?: string;
}

/**
 * Why a document could not be had. `retryable`: for want of an answer (the network, a timeout, a 5xx, this service's
 * own fetch slots) — asking again later may work; otherwise the server answered that it has no such document.
 */
export interface FetchFailure {
  readonly ok: false;
  readonly reason: string;
  readonly retryable: boolean;
  /**
   * This service's own fetch slots were all taken, so nothing was asked: the failure says nothing of the server, and
   * only it may be told to the client as "try again later" (anything learnt from the server must not be).
   */
  readonly busy?: boolean;
}

export type FetchResult = { readonly ok: true; readonly document: FetchedDocument } | FetchFailure;

/** Fetches ActivityStreams documents from other servers (the keys that sign requests, actors), within the rules. */
export interface DocumentFetcher {
  /**
   * The document at `url` (without fragment); its `id` must be on the origin it was finally served from (callers
   * check the id itself). The same URL asked again within a minute answers from memory. `known`: the origin verified
   * a signature before, so the fetch may use the slots kept for such origins.
   */
  fetchDocument(url: string, options?: { known?: boolean }): Promise<FetchResult>;
  /** Forgets a fetched document, so that the next fetch asks its server again (a key that may have changed). */
  forget(url: string): void;
}
