// The baseline: a bare Koa app answering "hello", in its own process. Prints {"port":…} once it listens.
import { once } from 'node:events';
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = 'hello';
});
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
