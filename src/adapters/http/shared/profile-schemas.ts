// The profile's request and answer (API.md §4.2): they validate bodies and generate /openapi.json. The domain's
// rules (profile.ts) judge every field and word its message; the bounds here only cap what is parsed before them.
import { z } from 'zod';
import { PROFILE_RULES, type Profile } from '../../../domain/profile.js';
import { formBoolean, UserSummary } from './schemas.js';

const nullableText = (max: number, description: string) =>
  z
    .union([z.string().max(max * 4), z.null()])
    .optional()
    .openapi({ type: ['string', 'null'], description });

/** Asset names, as a JSON array or the form's one comma-separated field. */
const assetNames = z.union([
  z.array(z.string().max(200)).max(20),
  z
    .string()
    .max(4000)
    .transform((s) => s.split(',')),
]);

/**
 * A form sends its fields as `fields[0][name]`, `fields[0][value]`, …: folded here into the JSON shape, in the
 * order of their index, before the schema judges them.
 */
function foldFormFields(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const rows = new Map<number, { name?: unknown; value?: unknown }>();
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const match = /^fields\[(\d{1,2})\]\[(name|value)\]$/.exec(key);
    if (!match) rest[key] = value;
    else {
      const row = rows.get(Number(match[1])) ?? {};
      row[match[2] as 'name' | 'value'] = value;
      rows.set(Number(match[1]), row);
    }
  }
  if (rows.size === 0) return body;
  const fields = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => ({ name: row.name ?? '', value: row.value ?? '' }));
  return { ...rest, fields };
}

export const UpdateProfileRequest = z
  .preprocess(
    foldFormFields,
    z.object({
      display_name: nullableText(
        PROFILE_RULES.displayNameMaxCharacters,
        `At most ${PROFILE_RULES.displayNameMaxCharacters} characters, no control characters; null shows the username.`,
      ),
      bio: nullableText(
        PROFILE_RULES.bioMaxCharacters,
        `Plain text, at most ${PROFILE_RULES.bioMaxCharacters} characters.`,
      ),
      avatar: nullableText(200, 'The name of one of your own live image assets with an https URL, or null.'),
      header: nullableText(200, 'The same, for the banner.'),
      fields: z
        .array(
          z.object({
            name: z.string().max(PROFILE_RULES.fieldNameMaxCharacters * 4),
            value: z.string().max(PROFILE_RULES.fieldValueMaxCharacters * 4),
          }),
        )
        .max(16)
        .optional()
        .openapi({
          description: `At most ${PROFILE_RULES.fieldsMax} fields of a name (≤ ${PROFILE_RULES.fieldNameMaxCharacters} characters) and a value (≤ ${PROFILE_RULES.fieldValueMaxCharacters}); a form sends fields[0][name], fields[0][value], …`,
        }),
      pinned: assetNames.optional().openapi({
        type: 'array',
        items: { type: 'string' },
        description: `At most ${PROFILE_RULES.pinnedMax} names of your own live assets, in order; a form sends one comma-separated field.`,
      }),
      indexable: formBoolean.optional().openapi({
        type: 'boolean',
        description: 'Opt in to full-text search on other servers. A form sends a checkbox.',
      }),
      manually_approves_followers: formBoolean.optional().openapi({
        type: 'boolean',
        description:
          'A Follow becomes a follow request you accept or reject; turning it off accepts every waiting one. ' +
          'A form sends a checkbox.',
      }),
    }),
  )
  .openapi('UpdateProfileRequest');

export type UpdateProfileInput = z.output<typeof UpdateProfileRequest>;

export const UserWithProfile = UserSummary.extend({
  display_name: z.string().nullable(),
  bio: z.string().nullable(),
  avatar: z.string().nullable(),
  header: z.string().nullable(),
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
  pinned: z.array(z.string()),
  indexable: z.boolean(),
  manually_approves_followers: z.boolean(),
}).openapi('UserWithProfile');

/** The edit page's fields for a profile: what it holds now, with empty rows to add fields up to the limit. */
export function formValuesOf(profile: Profile): Record<string, unknown> {
  return {
    display_name: profile.displayName ?? '',
    bio: profile.bio ?? '',
    avatar: profile.avatar ?? '',
    header: profile.header ?? '',
    fields: Array.from(
      { length: PROFILE_RULES.fieldsMax },
      (_, i) => profile.fields[i] ?? { name: '', value: '' },
    ),
    pinned: profile.pinned.join(', '),
    indexable: profile.indexable,
    manually_approves_followers: profile.manuallyApprovesFollowers,
  };
}

/** The edit page's fields as the person typed them, to show again after a refusal. */
export function formValuesTyped(body: unknown): Record<string, unknown> {
  const folded = (foldFormFields(body) ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof folded[key] === 'string' ? (folded[key] as string) : '');
  const fields = Array.isArray(folded.fields) ? (folded.fields as { name: string; value: string }[]) : [];
  return {
    display_name: text('display_name'),
    bio: text('bio'),
    avatar: text('avatar'),
    header: text('header'),
    fields: Array.from({ length: PROFILE_RULES.fieldsMax }, (_, i) => ({
      name: String(fields[i]?.name ?? ''),
      value: String(fields[i]?.value ?? ''),
    })),
    pinned: text('pinned'),
    indexable: folded.indexable !== undefined && folded.indexable !== 'false',
    manually_approves_followers:
      folded.manually_approves_followers !== undefined && folded.manually_approves_followers !== 'false',
  };
}
