import { Secret, TOTP } from 'otpauth';
import type { OneTimePasswords } from '../../application/ports/one-time-passwords.js';

/** RFC 6238 as authenticator apps implement it: SHA-1, 6 digits, 30 s. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** The steps accepted on each side of the current one: ±30 s of clock difference. */
const WINDOW = 1;

/**
 * TOTP on `otpauth` (maintained, no dependency but @noble/hashes; node:crypto's timingSafeEqual compares the codes).
 * The tests compute codes with an implementation of their own, checked against RFC 6238's vectors.
 */
export class OtpauthOneTimePasswords implements OneTimePasswords {
  newSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  matchingStep(secret: string, code: string, now: Date): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const timestamp = now.getTime();
    const delta = TOTP.validate({
      token: code,
      secret: Secret.fromBase32(secret),
      digits: DIGITS,
      period: PERIOD_SECONDS,
      timestamp,
      window: WINDOW,
    });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }

  provisioningUri(secret: string, account: string, issuer: string): string {
    return new TOTP({
      issuer,
      label: account,
      secret: Secret.fromBase32(secret),
      digits: DIGITS,
      period: PERIOD_SECONDS,
    }).toString();
  }
}
