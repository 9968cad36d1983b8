// What the security use-case tests share: an asker confirming with their password, the authenticator app's current
// code (RFC 6238, written for the tests), the second factor turned on, and a passkey added by a software authenticator.
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import type { Asker } from '../../../../src/application/use-cases/security/asker.js';
import { base32Decode, totp } from '../../../support/rfc6238.js';
import { SoftAuthenticator } from '../../../support/soft-authenticator.js';
import { KIT_ADDRESS, KIT_L2 } from '../../../support/use-case-kit.js';
import { PASSWORD, type Kit } from '../accounts/account-fixtures.js';

/** The address a change is made from, as the history shows it. */
export const HISTORY_ADDRESS = '198.51.100.7';

/** `session` asking for a change, confirming it with `password`. */
export const askedBy = (session: AuthenticatedToken, password = PASSWORD): Asker => ({
  session,
  confirmation: { password },
  clientAddress: KIT_ADDRESS,
  address: HISTORY_ADDRESS,
});

/** The code the authenticator app holding `secret` shows at the kit's time. */
export const appCode = (kit: Kit, secret: string): string => totp(base32Decode(secret), kit.clock.now());

/** Turns the second factor on for `session`'s account: its secret and its ten recovery codes. */
export async function withSecondFactor(
  kit: Kit,
  session: AuthenticatedToken,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrolment = await kit.useCases.beginTotpEnrolment.execute(session);
  if (!enrolment.ok) throw new Error(`enrolment: ${enrolment.error.type}`);
  const { secret } = enrolment.value;
  const enabled = await kit.useCases.enableTotp.execute({ ...askedBy(session), code: appCode(kit, secret) });
  if (!enabled.ok) throw new Error(`enable: ${enabled.error.type}`);
  // The code that turned it on is used: the next sign-in needs the app's next one.
  kit.clock.advance(30_000);
  return { secret, recoveryCodes: enabled.value.recoveryCodes };
}

/** A phone with a passkey for the kit's L2, added to `session`'s account. */
export async function withPasskey(
  kit: Kit,
  session: AuthenticatedToken,
  phone = new SoftAuthenticator(KIT_L2),
  name = 'Phone',
): Promise<{ phone: SoftAuthenticator; id: string }> {
  const options = await kit.useCases.startPasskeyRegistration.execute(session);
  if (!options.ok) throw new Error(`options: ${options.error.type}`);
  const added = await kit.useCases.addPasskey.execute({
    ...askedBy(session),
    name,
    response: phone.register(options.value),
  });
  if (!added.ok) throw new Error(`add: ${added.error.type}`);
  return { phone, id: added.value.id };
}

/** The passkey sign-in answer of `phone` to fresh options. */
export async function passkeyAnswer(kit: Kit, phone: SoftAuthenticator, which = 0): Promise<unknown> {
  const options = await kit.useCases.startPasskeySignIn.execute(KIT_ADDRESS);
  if (!options.ok) throw new Error(`options: ${options.error.type}`);
  return phone.signIn(options.value, which);
}
