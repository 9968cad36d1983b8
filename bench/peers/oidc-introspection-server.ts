// A peer for scenario 8: oidc-provider (the most used Node OAuth 2.0 / OpenID Connect server) with token
// introspection (RFC 7662) and the client_credentials grant, in its own process. Prints one JSON line once it
// listens — {"port", "clientId", "clientSecret", "introspectionPath", "tokenPath"} — and exits on SIGTERM.
//
// Production-like: NODE_ENV=production (set by the bench), its own RSA signing key (no development keys), no
// development interactions, an explicit introspection policy and explicit lifetimes (so that no "you SHOULD
// change" default is called). Its store is the library's own in-memory adapter: the fastest store it has (a
// real deployment puts Redis or a database behind it), so the comparison favours the peer.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

const ISSUER = 'http://oidc.bench.localhost';
const clientId = 'bench_rs';
const clientSecret = randomBytes(32).toString('base64url');

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'bench-1', use: 'sig', alg: 'RS256' };

const provider = new Provider(ISSUER, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: {
      enabled: true,
      // What the default policy does for an authenticated client, without its "you SHOULD change" notice: a client
      // may introspect tokens (L2's verify answers anyone who holds the token; this asks for a client too).
      allowedPolicy: (ctx: KoaContextWithOIDC, client: { clientId: string }) =>
        client.clientId === ctx.oidc.client?.clientId,
    },
  },
  ttl: { AccessToken: 3600, ClientCredentials: 3600 },
});
// Errors are answered as OAuth error responses; no stack traces to stderr under load.
provider.silent = true;

const server = createServer(provider.callback());
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
console.log(
  JSON.stringify({
    port: typeof address === 'object' && address ? address.port : 0,
    clientId,
    clientSecret,
    tokenPath: '/token',
    introspectionPath: '/token/introspection',
  }),
);
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
