import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { normaliseL1Server } from '../../../domain/l1-server.js';
import { hasLoneSurrogate } from '../../../domain/text.js';
import {
  hasNulCharacter,
  NOT_TEXT_MESSAGE,
  NUL_CHARACTER_MESSAGE,
  PASSWORD_HASHED_BYTES,
  PASSWORD_MAX_CHARACTERS,
  PASSWORD_MIN_CHARACTERS,
  passwordLength,
} from '../../../domain/password.js';
import { AUTHENTICATION_METHODS } from '../../../domain/sign-in-methods.js';
import { USERNAME_RULE } from '../../../domain/user.js';

extendZodWithOpenApi(z);

// ---- requests: these validate bodies and generate /openapi.json, so the two cannot drift apart ----

const l1ServerUrl = z
  .string()
  .refine((value) => normaliseL1Server(value).ok, {
    message: 'Must be an absolute http(s) URL without userinfo, query or fragment.',
  })
  .openapi({ example: 'https://l1.example', description: 'The L1 server URL; normalised before use.' });

/** A password being set: the rules of API.md §1. */
export const newPassword = z
  .string()
  .refine((p) => !hasNulCharacter(p), { message: NUL_CHARACTER_MESSAGE, abort: true })
  .refine((p) => !hasLoneSurrogate(p), { message: NOT_TEXT_MESSAGE, abort: true })
  .refine(
    (p) => passwordLength(p) >= PASSWORD_MIN_CHARACTERS && passwordLength(p) <= PASSWORD_MAX_CHARACTERS,
    {
      message: `Use ${PASSWORD_MIN_CHARACTERS} to ${PASSWORD_MAX_CHARACTERS} characters.`,
    },
  )
  .openapi({
    description: `Only the first ${PASSWORD_HASHED_BYTES} UTF-8 bytes are hashed.`,
    minLength: PASSWORD_MIN_CHARACTERS,
    maxLength: PASSWORD_MAX_CHARACTERS,
  });

/** A password being checked: anything up to the longest a password may be. */
export const givenPassword = z
  .string()
  .min(1)
  .refine((p) => !hasNulCharacter(p), { message: NUL_CHARACTER_MESSAGE, abort: true })
  .refine((p) => !hasLoneSurrogate(p), { message: NOT_TEXT_MESSAGE, abort: true })
  .refine((p) => passwordLength(p) <= PASSWORD_MAX_CHARACTERS, {
    message: `At most ${PASSWORD_MAX_CHARACTERS} characters.`,
  });

export const RegisterRequest = z
  .object({
    username: z
      .string()
      .regex(new RegExp(`^${USERNAME_RULE.typedPattern}$`), USERNAME_RULE.message)
      .openapi({ description: 'Lower-cased before any check.', example: 'alice' }),
    password: newPassword,
  })
  .openapi('RegisterRequest');

export const LoginRequest = z
  .object({ username: z.string().min(1).max(100).openapi({ example: 'alice' }), password: givenPassword })
  .openapi('LoginRequest');

export const VerifyRequest = z
  .object({
    token: z.string().min(1, 'A token is required.').openapi({ description: 'The JWT to verify.' }),
    l1_server: l1ServerUrl.nullish().openapi({ description: "The requesting L1 server's own URL." }),
  })
  .openapi('VerifyRequest');

/** A boolean as JSON sends it, or as a form does (a checkbox sends `on` when ticked and nothing when not). */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on'])])
  .transform((v) => v === true || v === 'true' || v === 'on');

export const LogoutRequest = z
  .object({
    everywhere: formBoolean
      .optional()
      .openapi({ type: 'boolean', description: 'Revoke every token of the user.' }),
  })
  .openapi('LogoutRequest');

export const RendererRequest = z.object({ l1_server: l1ServerUrl }).openapi('RendererRequest');

// ---- responses: documentation only ----

export const isoTime = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });

export const RegisterResponse = z
  .object({
    username: z.string(),
    actor: z.string().url(),
    webfinger: z.string().openapi({ example: 'acct:alice@l2.example' }),
    created_at: isoTime,
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_at: isoTime,
  })
  .openapi('RegisterResponse');

export const LoginResponse = z
  .object({
    username: z.string(),
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ example: 2592000 }),
    expires_at: isoTime,
  })
  .openapi('LoginResponse');

/** How the person signed in (RFC 8176), as tokens carry it. */
export const Amr = z.array(z.enum(AUTHENTICATION_METHODS)).openapi({
  description:
    'How the person signed in (RFC 8176): `pwd` a password; `otp` a one-time code (authenticator app or recovery ' +
    'code); `hwk` / `swk` a passkey kept in hardware / that may be synced; `mfa` two factors (password and code, ' +
    'or a passkey with user verification). A scoped token carries its session’s.',
  example: ['pwd', 'otp', 'mfa'],
});

/** The token a request was made with, as `/auth/me` describes it. */
const PresentedToken = z.object({
  jti: z.string(),
  issued_at: isoTime,
  expires_at: isoTime,
  l1_server: z.string().nullable(),
  amr: Amr,
});

export const MeResponse = z
  .object({ username: z.string(), actor: z.string().url(), created_at: isoTime, l2_server: z.string().url() })
  .extend({ token: PresentedToken })
  .openapi('MeResponse');

export const VerifyResponse = z
  .object({
    valid: z.literal(true),
    username: z.string(),
    l2_server: z.string().url(),
    l1_server: z.string().nullable(),
    expires_at: isoTime,
    amr: Amr,
  })
  .openapi('VerifyResponse');

export const RevokedResponse = z.object({ revoked: z.number().int().min(0) }).openapi('RevokedResponse');

export const ChangePasswordRequest = z
  .object({ current_password: givenPassword, new_password: newPassword })
  .openapi('ChangePasswordRequest');

export const DeleteAccountRequest = z.object({ password: givenPassword }).openapi('DeleteAccountRequest');

export const DeletedAccount = z
  .object({
    deleted: z.literal(true),
    username: z.string(),
    revoked: z.number().int().min(0).openapi({ description: 'Tokens revoked' }),
    assets: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'Live assets deleted (each with a signed Delete)' }),
  })
  .openapi('DeletedAccount');

export const JtiParam = z.object({
  jti: z.string().openapi({ description: 'The `jti` of a session or scoped token' }),
});

export const SessionList = z
  .object({
    items: z.array(
      z.object({
        jti: z.string(),
        issued_at: isoTime,
        expires_at: isoTime,
        l1_server: z.string().nullable(),
        current: z.boolean(),
      }),
    ),
  })
  .openapi('SessionList');

export const AttachResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    l1_server: z.string(),
    expires_at: isoTime,
  })
  .openapi('AttachResponse');

export const RenderersResponse = z
  .object({ items: z.array(z.object({ l1_server: z.string(), attached_at: isoTime })) })
  .openapi('RenderersResponse');

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    valid: z.literal(false).optional(),
  })
  .openapi('Problem');

export const HealthResponse = z.object({ status: z.string() }).openapi('Health');

// ---- lists (API.md §0) ----

/** Plain decimal digits only (no `1e3`, `0x10`, empty or repeated parameters), then a number. */
const decimal = (pattern: RegExp) => z.string().regex(pattern).transform(Number).pipe(z.number().int());

export const ListQuery = z.object({
  limit: decimal(/^\d{1,3}$/)
    .pipe(z.number().min(1).max(100))
    .default(20),
  before: decimal(/^\d{1,16}$/).optional(),
  after: decimal(/^(-1|\d{1,16})$/).optional(),
});

/** A cursor-paged list of `item`s, as every list route answers. */
export const listOf = (item: z.ZodType, name: string) =>
  z
    .object({
      items: z.array(item),
      total: z.number().int(),
      next: z.string().url().nullable(),
      prev: z.string().url().nullable(),
    })
    .openapi(name);

export const UserSummary = z
  .object({ username: z.string(), actor: z.string().url(), created_at: isoTime })
  .openapi('User');

export const UserList = listOf(UserSummary, 'UserList');
