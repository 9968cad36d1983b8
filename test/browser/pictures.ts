// Pictures for the browser tests: small PNGs drawn here, served by the browser context itself at https URLs of a
// host that does not exist (the machine has no network), so a page can show an asset's file, an avatar or a header.
import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContext, Request } from 'playwright-core';

type Rgb = readonly [number, number, number];

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  Math.round(a[0] + (b[0] - a[0]) * t),
  Math.round(a[1] + (b[1] - a[1]) * t),
  Math.round(a[2] + (b[2] - a[2]) * t),
];

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of `width` × `height`, each pixel's colour given by `pixel`. */
export function png(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter choice, no interlace
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3); // each row starts with its filter type, 0 (none)
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A sun going down over the sea. */
const sunset = (width: number, height: number) =>
  png(width, height, (x, y) => {
    const horizon = height * 0.62;
    const sun = Math.hypot(x - width * 0.5, y - horizon) < height * 0.18;
    if (y < horizon) return sun ? [255, 214, 102] : mix([58, 44, 110], [247, 137, 72], (y / horizon) ** 1.5);
    const glint = Math.abs(x - width * 0.5) < height * 0.12 * (1 - (y - horizon) / height) && y % 6 < 3;
    return glint ? [250, 180, 90] : mix([36, 64, 110], [14, 30, 60], (y - horizon) / (height - horizon));
  });

/** A head and shoulders on a teal ground. */
const portrait = (size: number) =>
  png(size, size, (x, y) => {
    const head = Math.hypot(x - size / 2, y - size * 0.4) < size * 0.2;
    const shoulders = Math.hypot(x - size / 2, y - size * 1.02) < size * 0.42;
    if (head) return [242, 201, 160];
    if (shoulders) return [40, 52, 90];
    return mix([32, 150, 140], [16, 96, 110], y / size);
  });

/** A wide harbour: sky, a line of hills, water with stripes of light. */
const harbour = (width: number, height: number) =>
  png(width, height, (x, y) => {
    const hills = height * (0.5 - 0.08 * Math.sin(x / 90) - 0.05 * Math.sin(x / 37));
    if (y < hills) return mix([120, 170, 220], [200, 225, 245], y / hills);
    if (y < height * 0.6) return [52, 90, 70];
    return y % 10 < 2 ? [150, 190, 220] : mix([40, 90, 140], [20, 50, 90], y / height);
  });

/** Where the test pictures live: a host that resolves nowhere, answered by the browser context. */
export const PICTURES = 'https://pictures.example';

const FILES: Record<string, () => Buffer> = {
  'sunset.png': () => sunset(640, 400),
  'portrait.png': () => portrait(256),
  'harbour.png': () => harbour(1200, 400),
};

const drawn = new Map<string, Buffer>();

/**
 * Serves the test pictures at `${PICTURES}/<file>` to every page of `context`, and returns the requests made for
 * them (to check what each one sent, such as a Referer).
 */
export async function servePictures(context: BrowserContext): Promise<Request[]> {
  const requests: Request[] = [];
  await context.route(`${PICTURES}/**`, async (route) => {
    requests.push(route.request());
    const file = new URL(route.request().url()).pathname.slice(1);
    const draw = FILES[file];
    if (!draw) return route.fulfill({ status: 404, body: '' });
    if (!drawn.has(file)) drawn.set(file, draw());
    return route.fulfill({ status: 200, contentType: 'image/png', body: drawn.get(file)! });
  });
  return requests;
}
