// A tag is compared case-insensitively (API.md §4.1): every store finds the assets of a tag by this key, kept beside the
// tags as given, computed here once, so that SQLite's index table, MongoDB's array and the memory store's map agree.
// JavaScript lower-cases every script (SQLite's lower() and MongoDB's $toLower only ASCII), so keys are never made
// by the database itself.

/** What a tag is compared by: `Art`, `ART` and `art` are one tag. */
export const tagKey = (tag: string): string => tag.toLowerCase();

/** The distinct keys of an asset's tags (`Art` and `art` on one asset count once). */
export const tagKeysOf = (tags: readonly string[]): string[] => [...new Set(tags.map(tagKey))];
