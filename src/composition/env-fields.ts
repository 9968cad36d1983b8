// The shapes of environment values the configuration reads: a flag, a bounded integer with its default.
import { z } from 'zod';

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

export const int = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
