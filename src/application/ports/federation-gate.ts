/**
 * Whether L2 federates with the servers behind some URLs (API.md §4.3): the operator's domain rules and the
 * federation mode. The outbound client asks it before every fetch and delivery, the inbox before anything else.
 */
export interface FederationGate {
  /**
   * Whether L2 federates with the host of every one of `urls` (a URL of this service's own origin always; one that
   * is no URL is not judged here). Reads the rules as they are now: a rule takes effect at once.
   */
  federatesWith(urls: readonly string[]): Promise<boolean>;
  /**
   * The same for one URL, from the rules as read at most a second ago (one store read per second per process, not
   * one per delivery): the delivery worker's check, after the store already dropped what a block covers.
   */
  federatesWithRecently(url: string): Promise<boolean>;
}
