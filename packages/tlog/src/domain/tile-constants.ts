/** The fixed shape of c2sp.org/tlog-tiles: tiles of 256 hashes, each a subtree of height 8. */
export const TILE_HEIGHT = 8;
export const FULL_TILE_WIDTH = 256;
/** The highest level a tile path may name (tlog-tiles: 0–63). */
export const MAX_TILE_LEVEL = 63;
