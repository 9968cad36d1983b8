// The security area: what protects an account — the second step of a sign-in, the authenticator app and its
// recovery codes, passkeys (and signing in with one), the operator's reset link — each change confirmed and recorded.
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { AddPasskey } from './add-passkey.js';
import { BeginTotpEnrolment } from './begin-totp-enrolment.js';
import { CheckResetLink } from './check-reset-link.js';
import { CompleteSignIn } from './complete-sign-in.js';
import { DisableTotp } from './disable-totp.js';
import { EnableTotp } from './enable-totp.js';
import { GetAccountSecurity } from './get-account-security.js';
import { RegenerateRecoveryCodes } from './regenerate-recovery-codes.js';
import { RemovePasskey } from './remove-passkey.js';
import { ResetPassword } from './reset-password.js';
import { SignInWithPasskey } from './sign-in-with-passkey.js';
import { StartPasskeyRegistration } from './start-passkey-registration.js';
import { StartPasskeySignIn } from './start-passkey-sign-in.js';

export const SECURITY_USE_CASES = {
  completeSignIn: (p) =>
    new CompleteSignIn(
      p.secondSteps,
      p.store.users,
      p.store.accountSecurity,
      p.oneTimePasswords,
      p.secrets,
      p.loginThrottle,
      p.appCodeFailures,
      p.sessionStart,
      p.clock,
    ),
  startPasskeySignIn: (p) => new StartPasskeySignIn(p.passkeyAssertions, p.passkeyChallenges),
  signInWithPasskey: (p) => new SignInWithPasskey(p.passkeyAssertions, p.store.users, p.sessionStart),
  getAccountSecurity: (p) => new GetAccountSecurity(p.store.accountSecurity),
  beginTotpEnrolment: (p) =>
    new BeginTotpEnrolment(
      p.store.accountSecurity,
      p.oneTimePasswords,
      p.clock,
      `L2 (${p.urls.address.host})`,
    ),
  enableTotp: (p) =>
    new EnableTotp(
      p.identityConfirmation,
      p.store.accountSecurity,
      p.oneTimePasswords,
      p.secrets,
      p.clock,
      p.store.issuedTokens,
      p.revocationWriter,
    ),
  disableTotp: (p) => new DisableTotp(p.identityConfirmation, p.store.accountSecurity, p.clock),
  regenerateRecoveryCodes: (p) =>
    new RegenerateRecoveryCodes(p.identityConfirmation, p.store.accountSecurity, p.secrets, p.clock),
  startPasskeyRegistration: (p) =>
    new StartPasskeyRegistration(p.passkeyCeremonies, p.store.accountSecurity, p.secrets, p.clock),
  addPasskey: (p) =>
    new AddPasskey(p.identityConfirmation, p.passkeyCeremonies, p.store.accountSecurity, p.secrets, p.clock),
  removePasskey: (p) => new RemovePasskey(p.identityConfirmation, p.store.accountSecurity, p.clock),
  checkResetLink: (p) => new CheckResetLink(p.resetLinks),
  resetPassword: (p) =>
    new ResetPassword(
      p.resetLinks,
      p.store.accountSecurity,
      p.passwordHasher,
      p.store.issuedTokens,
      p.revocationWriter,
      p.workSignal,
      p.clock,
      p.loginThrottle,
    ),
} satisfies AreaRegistry;

export type SecurityUseCases = UseCasesOf<typeof SECURITY_USE_CASES>;
