// The floor of scenario 11's cold fat-bundle reads (issue 33): a bare node:http server that answers GET /<n> with
// entry bundle n of a SQLite store, built afresh for every request the plainest way — its 256 entries in one read
// through the same adapter L2 uses, encoded, gzipped on zlib's thread pool — with no routing, no coverage check, no
// cache and no bound. What the machine allows for building and sending those bytes. Prints {"port":…} once it listens.
// Usage: node --import tsx bench/bundle-floor-server.ts <sqlite file>
import { once } from 'node:events';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { openSqlitePersistence } from '../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { encodeEntryBundle } from '@l2/tlog';

const gzip = promisify(gzipCallback);
const store = openSqlitePersistence(process.argv[2] ?? '');

const server = createServer((request, response) => {
  const index = Number((request.url ?? '').slice(1));
  store.transparencyLog
    .entries(index * 256, 256)
    .then((entries) => gzip(encodeEntryBundle(entries)))
    .then(
      (body) =>
        response
          .writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-encoding': 'gzip',
            'content-length': body.length,
          })
          .end(body),
      () => response.writeHead(404).end(),
    );
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
process.once('SIGTERM', () => server.close(() => void store.close().then(() => process.exit(0))));
