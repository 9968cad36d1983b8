import { createServer, type RequestListener, type Server } from 'node:http';

/** What the listener gives each client before it closes the connection. */
export interface ServerLimits {
  /** To send the request's headers: a client that trickles them (slowloris) is cut off after this. */
  readonly headersTimeoutMs: number;
  /** To send the whole request, body included. */
  readonly requestTimeoutMs: number;
  /** Connections at once; more are closed as they arrive, below the process's descriptor limit. */
  readonly maxConnections: number;
}

/**
 * How often Node looks for connections past their timeouts. Its default, 30 s, would let a half-open connection
 * live 40 s with a 10 s header timeout.
 */
const CONNECTIONS_CHECK_MS = 1_000;

/** The HTTP server L2 listens with (production and tests alike); limits applied with {@link applyServerLimits}. */
export function createHttpServer(listener?: RequestListener): Server {
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_MS });
  if (listener) server.on('request', listener);
  return server;
}

/** Sets the limits; they apply to connections accepted from then on. */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.maxConnections = limits.maxConnections;
}
