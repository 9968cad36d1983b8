#!/usr/bin/env node
// Runs the compiled CLI (`npm run build` makes dist/; `npm install` does it through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('l2: dist/cli.js is missing; run `npm run build` first');
  process.exit(1);
}
await import(cli);
