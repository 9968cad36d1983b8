// The floor of scenario 11's tile and bundle reads: a bare node:http server answering fixed bytes, with the same
// headers L2 answered them with — no routing, no store, no parsing of the path. What the machine allows for sending
// those bytes, against which L2's reads of them are measured. Prints {"port":…} once it listens.
// Usage: node --import tsx bench/bytes-server.ts '{"/tile":{"file":"…","headers":{…}},…}'
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';

interface Answer {
  readonly body: Buffer;
  readonly headers: OutgoingHttpHeaders;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Record<
  string,
  { file: string; headers: OutgoingHttpHeaders }
>;
const answers = new Map<string, Answer>(
  Object.entries(spec).map(([path, { file, headers }]) => {
    const body = readFileSync(file);
    return [path, { body, headers: { ...headers, 'content-length': body.length } }];
  }),
);

const server = createServer((request, response) => {
  const answer = answers.get(request.url ?? '');
  if (answer === undefined) return void response.writeHead(404).end();
  response.writeHead(200, answer.headers).end(answer.body);
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
