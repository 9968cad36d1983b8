/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, so a failing run can be replayed. */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An independent stream for one purpose (a round's kill delay, one actor of one round), derived from the seed. */
export function rngFor(seed: number, ...parts: number[]): Rng {
  let h = seed | 0;
  for (const part of parts) h = (Math.imul(h ^ (part | 0), 0x9e3779b1) + 0x7f4a7c15) | 0;
  const rng = mulberry32(h);
  // Let the mixed state settle a little: nearby seeds otherwise start with similar first draws.
  for (let i = 0; i < 4; i++) rng();
  return rng;
}

export const pick = <T>(rng: Rng, items: readonly T[]): T | undefined =>
  items.length === 0 ? undefined : items[Math.floor(rng() * items.length)];
