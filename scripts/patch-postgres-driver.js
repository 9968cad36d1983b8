// Guards postgres.js 3.4.9 against a connection that closes under it (porsager/postgres#1208, #1154, #1066; fixes
// proposed upstream in #1168 and #1209, not released). Unpatched, `nextWrite` ran from a timer after the socket was
// gone and threw where nothing could catch it, ending the whole process: an L2 instance died when PostgreSQL
// restarted (test/integration/postgres-restart.test.ts). Patched here, in the ESM and the CommonJS copies:
//  - `nextWrite` on a closed connection drops the buffered bytes and rejects what waits on them (CONNECTION_CLOSED,
//    which L2 answers 503) instead of throwing;
//  - closing a connection forgets its buffered bytes and its write timer, so that a connection made again neither
//    sends the old bytes before its start-up message nor stops scheduling its writes;
//  - closing a connection after an error also rejects the statements sent to it after that error (between the
//    socket's `error` and `close` events), which otherwise waited for ever;
//  - the statements a new connection runs for itself (the array types, and the server's state for
//    target_session_attrs) failing — the server going away just after accepting it — no longer reject a promise
//    nobody holds (Node ends the process on an unhandled rejection): the connection's error reaches the statements
//    waiting for it, as for any failure;
//  - a reserved connection (the export's) released after it closed stays with the closed ones, to be connected
//    again when needed, instead of going back to the open ones where every statement on it would fail.
// Idempotent; run by `npm run build` (so by `npm ci`'s prepare, `npm start` and the Dockerfile's build). A driver
// whose code is not the one patched is refused, loudly: a new version must be looked at, and this script dropped
// once upstream has the fix (test/adapters/persistence/postgres.test.ts, "a connection lost under the driver").
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const MARK = '/* patched by L2: porsager/postgres#1208 */';
const PATCHED_VERSION = '3.4.9';

const PATCHES = {
  'connection.js': [
    [
      'function nextWrite(fn) {\n    const x = socket.write(chunk, fn)',
      `function nextWrite(fn) {\n    ${MARK}\n    if (socket === null) {\n      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
    ],
    [
      '    clearImmediate(nextWriteTimer)\n    if (socket) {',
      '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    if (socket) {',
    ],
    [
      "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))",
      // An if statement: the file has no semicolons, and a line that starts with `(` would call the line before.
      "    if (query || sent.length) error(Errors.connection('CONNECTION_CLOSED', options, socket))",
    ],
    [
      '    clearImmediate(nextWriteTimer)\n    socket.removeListener',
      '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener',
    ],
    ['        return fetchArrayTypes()\n', '        return fetchArrayTypes().catch(() => undefined)\n'],
    ['    query.execute()\n  }\n', '    query.execute()\n    query.catch(() => undefined)\n  }\n'],
  ],
  'index.js': [
    [
      '    sql.release = () => {\n      c.reserved = null\n      onopen(c)\n    }',
      `    sql.release = () => {\n      ${MARK}\n      c.reserved = null\n      c.queue === closed || onopen(c)\n    }`,
    ],
  ],
};

function fail(message) {
  console.error(`scripts/patch-postgres-driver.js: ${message}`);
  process.exit(1);
}

// The package's entry for require() is cjs/src/index.js (its export map hides package.json).
const root = join(dirname(createRequire(import.meta.url).resolve('postgres')), '..', '..');
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (name !== 'postgres') fail(`${root} is not the postgres package`);
for (const copy of ['src', 'cjs/src'])
  for (const [file, replacements] of Object.entries(PATCHES)) {
    const path = join(root, copy, file);
    const source = readFileSync(path, 'utf8');
    if (source.includes(MARK)) continue;
    if (version !== PATCHED_VERSION)
      fail(
        `postgres ${version} is not ${PATCHED_VERSION}: see whether porsager/postgres#1208 is fixed in it`,
      );
    let patched = source;
    for (const [from, to] of replacements) {
      if (patched.split(from).length !== 2)
        fail(`${copy}/${file} does not hold once: ${from.split('\n')[0]}`);
      patched = patched.replace(from, to);
    }
    writeFileSync(path, patched);
  }
