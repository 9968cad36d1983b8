/** Decides whether the service may send requests to a URL (SSRF protection). */
export interface DestinationPolicy {
  /**
   * Null when the URL may be contacted as far as can be told without connecting, else the reason it may not.
   * Names are checked again on the resolved address when connecting.
   */
  check(url: string): Promise<string | null>;
}
