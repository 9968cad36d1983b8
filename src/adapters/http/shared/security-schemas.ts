// The request and answer bodies of the sign-in steps and of account security (docs/accounts.md): they validate the
// requests and generate /openapi.json.
import { z } from 'zod';
import { ACCOUNT_EVENT_KINDS, PASSKEY_NAME_MAX_CHARACTERS } from '../../../domain/account-security.js';
import { Amr, givenPassword, isoTime, newPassword } from './schemas.js';

/** The most a WebAuthn response in its JSON form may take (a form sends it as text): far above any browser's. */
const MAX_WEBAUTHN_CHARACTERS = 16_000;

/** An empty form field is a field not filled in. */
const blankless = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/**
 * What the browser's `navigator.credentials.create()` / `.get()` gave, in WebAuthn's JSON form: an object in a JSON
 * body, its JSON text in a form field. Checked for what it says by the ceremony, not here.
 */
export const WebAuthnResponse = z
  .union([
    z.record(z.string(), z.unknown()),
    z
      .string()
      .max(MAX_WEBAUTHN_CHARACTERS)
      .transform((text, ctx) => {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            return parsed as Record<string, unknown>;
        } catch {
          // Reported below.
        }
        ctx.addIssue({ code: 'custom', message: 'Not a WebAuthn response.' });
        return z.NEVER;
      }),
  ])
  .openapi({
    type: 'object',
    description:
      'The PublicKeyCredential the browser returned, in its JSON form (`credential.toJSON()`); a form sends its ' +
      'JSON text.',
  });

/** How the person proves it is them before a change: exactly one of the current password and a passkey. */
const confirmationFields = {
  current_password: blankless(givenPassword).openapi({ description: 'The current password…' }),
  passkey: blankless(WebAuthnResponse).openapi({
    description: '…or a passkey of the account answering a challenge of POST /auth/login/passkey/options.',
  }),
};

const oneConfirmation = (body: { current_password?: string; passkey?: unknown }, ctx: z.RefinementCtx) => {
  const given = [body.current_password, body.passkey].filter((v) => v !== undefined).length;
  if (given !== 1)
    ctx.addIssue({
      code: 'custom',
      path: ['current_password'],
      message: 'Give your current password, or confirm with a passkey.',
    });
};

export const ConfirmRequest = z
  .object(confirmationFields)
  .superRefine(oneConfirmation)
  .openapi('ConfirmRequest');

export const EnableTotpRequest = z
  .object({
    code: z
      .string()
      .regex(/^\s*\d{3}\s*\d{3}\s*$/, 'Six digits.')
      .openapi({ description: 'The code the authenticator app shows now.', example: '123456' }),
    ...confirmationFields,
  })
  .superRefine(oneConfirmation)
  .openapi('EnableTotpRequest');

export const AddPasskeyRequest = z
  .object({
    name: z
      .string()
      .max(PASSKEY_NAME_MAX_CHARACTERS * 4)
      .openapi({
        description: `What you call it (1–${PASSKEY_NAME_MAX_CHARACTERS} characters).`,
        example: 'Phone',
      }),
    response: WebAuthnResponse,
    ...confirmationFields,
  })
  .superRefine(oneConfirmation)
  .openapi('AddPasskeyRequest');

export const SecondStepRequest = z
  .object({
    challenge: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: 'The `challenge` of the `mfa_required` answer.' }),
    code: blankless(z.string().regex(/^\s*\d{3}\s*\d{3}\s*$/, 'Six digits.')).openapi({
      description: 'The code the authenticator app shows…',
      example: '123456',
    }),
    recovery_code: blankless(z.string().max(64)).openapi({
      description: '…or one of the recovery codes (used up).',
      example: 'abcd-efgh-jkmn-pqrs',
    }),
  })
  .superRefine((body, ctx) => {
    if ((body.code === undefined) === (body.recovery_code === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'Give the code of your app, or a recovery code.',
      });
  })
  .openapi('SecondStepRequest');

export const PasskeySignInRequest = z.object({ response: WebAuthnResponse }).openapi('PasskeySignInRequest');

export const ResetRequest = z
  .object({
    token: z.string().min(1).max(200).openapi({ description: 'The token of the reset link.' }),
    new_password: newPassword,
  })
  .openapi('ResetRequest');

// ---- answers: documentation only ----

export const SignedIn = z
  .object({
    username: z.string(),
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ example: 2592000 }),
    expires_at: isoTime,
    amr: Amr,
  })
  .openapi('SignedIn');

export const CeremonyOptions = z
  .object({ challenge: z.string() })
  .passthrough()
  .openapi('CeremonyOptions', {
    description:
      'WebAuthn options in their JSON form (PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON), for ' +
      '`PublicKeyCredential.parse…OptionsFromJSON()`; the challenge is single-use and lives five minutes.',
  });

export const TotpSetup = z
  .object({
    secret: z.string().openapi({ description: 'base32, to type into the app by hand' }),
    otpauth_uri: z.string().openapi({ description: 'what the QR code holds' }),
  })
  .openapi('TotpSetup');

export const RecoveryCodes = z
  .object({
    recovery_codes: z
      .array(z.string())
      .openapi({ description: 'Ten codes, shown this once; each works once.' }),
  })
  .openapi('RecoveryCodes');

export const TotpEnabled = RecoveryCodes.extend({
  enabled: z.literal(true),
  ended_sessions: z
    .number()
    .int()
    .openapi({
      description:
        "The account's other sessions, ended (with the tokens they scoped to L1 servers): one signed in with " +
        'the password alone could turn it off again.',
    }),
}).openapi('TotpEnabled');

export const TotpDisabled = z
  .object({ enabled: z.literal(false), changed: z.boolean().openapi({ description: 'false: it was off' }) })
  .openapi('TotpDisabled');

export const PasskeyJson = z
  .object({
    id: z.string().openapi({ description: 'The credential id (base64url)' }),
    name: z.string(),
    created_at: isoTime,
    last_used_at: isoTime.nullable(),
    kind: z.enum(['hwk', 'swk']).openapi({ description: '`swk`: the passkey may be synced (backed up)' }),
  })
  .openapi('Passkey');

export const PasskeyRemoved = z.object({ removed: z.literal(true) }).openapi('PasskeyRemoved');

export const AccountSecurity = z
  .object({
    second_factor: z.object({ enabled: z.boolean(), enabled_at: isoTime.nullable() }),
    recovery_codes_left: z.number().int().min(0),
    passkeys: z.array(PasskeyJson),
    history: z.array(
      z.object({
        kind: z.enum(ACCOUNT_EVENT_KINDS),
        detail: z.string().nullable(),
        at: isoTime,
        address: z.string().nullable(),
      }),
    ),
  })
  .openapi('AccountSecurity');

export const ResetDone = z
  .object({ username: z.string(), revoked: z.number().int().min(0) })
  .openapi('ResetDone');

export const PasskeyParam = z.object({
  id: z.string().openapi({ description: 'The credential id of one of your passkeys' }),
});
