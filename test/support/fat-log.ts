// The fattest activities a user can make the transparency log hold (issue 33): assets at every field limit, the text
// in four-byte characters that compress poorly — about 35 KB an entry, 9 MiB a bundle of 256.
import type { Persistence } from '../../src/application/ports/persistence.js';
import { activityDocument } from '../../src/domain/activity-document.js';
import { Urls } from '../../src/domain/activity-streams.js';
import {
  ALT_TEXT_MAX_CHARACTERS,
  DESCRIPTION_MAX_CHARACTERS,
  TAG_MAX_CHARACTERS,
  TAGS_MAX,
  URL_MAX_CHARACTERS,
  type Asset,
} from '../../src/domain/asset.js';
import { anAsset, aUsername } from './builders.js';

/** `count` characters outside the Basic Multilingual Plane (four bytes each in UTF-8), varied by `seed`. */
function astral(count: number, seed: number): string {
  let state = (seed * 2_654_435_761 + 1) >>> 0;
  const points: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    points.push(0x2_0000 + (state % 0xa6d0)); // CJK Unified Ideographs Extension B
  }
  return String.fromCodePoint(...points);
}

/** An asset with the longest description, alt text and URL, and the most and longest tags its rules allow. */
export function aFatAsset(n: number): Asset {
  const url = `https://cdn.example/${n}/`;
  return anAsset({
    owner: aUsername('alice'),
    mediaType: 'image/png',
    url: url + 'a'.repeat(URL_MAX_CHARACTERS - url.length),
    description: astral(DESCRIPTION_MAX_CHARACTERS, n),
    altText: astral(ALT_TEXT_MAX_CHARACTERS, n + 1),
    tags: Array.from({ length: TAGS_MAX }, (_, t) => `t${t}n${n}`.padEnd(TAG_MAX_CHARACTERS, 'x')),
  });
}

/** Appends `count` Creates of fat assets as the use-cases would store them (the document, unsigned), at the next idx. */
export async function appendFatActivities(
  store: Persistence,
  count: number,
  publicUrl: string,
): Promise<void> {
  const urls = Urls.of(publicUrl);
  const first = await store.activities.nextIdx();
  for (let idx = first; idx < first + count; idx++) {
    const asset = aFatAsset(idx);
    const published = new Date(Date.UTC(2026, 0, 1) + idx * 1000);
    const document = activityDocument({ idx, type: 'Create', asset, published, urls });
    const activity = {
      idx,
      type: 'Create' as const,
      actor: asset.owner,
      object: asset.name,
      published,
      document,
    };
    const outcome = await store.activities.append(activity, { kind: 'create', asset });
    if (outcome !== 'appended') throw new Error(`append ${idx}: ${outcome}`);
  }
}
