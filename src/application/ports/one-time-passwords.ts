/** TOTP (RFC 6238): 6 digits, 30-second steps, HMAC-SHA1 — what every authenticator app reads from a QR code. */
export interface OneTimePasswords {
  /** A new random secret (160 bits), base32 as authenticator apps take it. */
  newSecret(): string;
  /**
   * The time-step whose code `code` is, among the steps around `now` that are accepted (the current one and one on
   * each side, for clocks a little apart); null when it is none of them. The comparison takes the same time
   * wherever the codes differ.
   */
  matchingStep(secret: string, code: string, now: Date): number | null;
  /** The `otpauth://totp/…` URI the QR code holds: the secret, the account's name and the service's. */
  provisioningUri(secret: string, account: string, issuer: string): string;
}
