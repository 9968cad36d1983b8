import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { normaliseL1Server } from '../../../domain/l1-server.js';
import {
  PASSWORD_MAX_CHARACTERS,
  PASSWORD_MIN_CHARACTERS,
  passwordLength,
} from '../../../domain/password.js';

extendZodWithOpenApi(z);

// ---- requests: these validate bodies and generate /openapi.json, so the two cannot drift apart ----

const l1ServerUrl = z
  .string()
  .refine((value) => normaliseL1Server(value).ok, {
    message: 'Must be an absolute http(s) URL without userinfo, query or fragment.',
  })
  .openapi({ example: 'https://l1.example', description: 'The L1 server URL; normalised before use.' });

export const RegisterRequest = z
  .object({
    username: z
      .string()
      .regex(/^[A-Za-z0-9_]{3,30}$/, 'Use 3–30 characters of a–z, 0–9 and _.')
      .openapi({ description: 'Lower-cased before any check.', example: 'alice' }),
    password: z
      .string()
      .refine(
        (p) => passwordLength(p) >= PASSWORD_MIN_CHARACTERS && passwordLength(p) <= PASSWORD_MAX_CHARACTERS,
        {
          message: `Use ${PASSWORD_MIN_CHARACTERS} to ${PASSWORD_MAX_CHARACTERS} characters.`,
        },
      )
      .openapi({ description: 'Only the first 72 UTF-8 bytes are hashed.', minLength: 8, maxLength: 4096 }),
  })
  .openapi('RegisterRequest');

export const LoginRequest = z
  .object({
    username: z.string().min(1).max(100).openapi({ example: 'alice' }),
    password: z
      .string()
      .min(1)
      .refine((p) => passwordLength(p) <= PASSWORD_MAX_CHARACTERS, { message: 'At most 4096 characters.' }),
  })
  .openapi('LoginRequest');

export const VerifyRequest = z
  .object({
    token: z.string().min(1, 'A token is required.').openapi({ description: 'The JWT to verify.' }),
    l1_server: l1ServerUrl.nullish().openapi({ description: "The requesting L1 server's own URL." }),
  })
  .openapi('VerifyRequest');

const formBoolean = z
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

const isoTime = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });

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

export const MeResponse = z
  .object({
    username: z.string(),
    actor: z.string().url(),
    created_at: isoTime,
    l2_server: z.string().url(),
    token: z.object({
      jti: z.string(),
      issued_at: isoTime,
      expires_at: isoTime,
      l1_server: z.string().nullable(),
    }),
  })
  .openapi('MeResponse');

export const VerifyResponse = z
  .object({
    valid: z.literal(true),
    username: z.string(),
    l2_server: z.string().url(),
    l1_server: z.string().nullable(),
    expires_at: isoTime,
  })
  .openapi('VerifyResponse');

export const RevokedResponse = z.object({ revoked: z.number().int().min(0) }).openapi('RevokedResponse');

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
