// What the service says of itself: the home page's JSON, and what other servers read before anything else (API.md
// §4) — the JRD of webfinger and the NodeInfo documents. They describe the answers in /openapi.json and type their
// presenters (presenters/service-presenters.ts).
import { z } from 'zod';
// The OpenAPI extension of zod (.openapi), made once by schemas.ts.
import './schemas.js';

/** GET / as JSON: the service, and live counts of what it holds. */
export const ServiceResponse = z.object({
  name: z.string(),
  version: z.string(),
  l2_server: z.string(),
  stats: z.object({ users: z.number().int(), assets: z.number().int(), activities: z.number().int() }),
});

/** RFC 7033 §4.4: a JRD, as L2 writes one (a subject, its aliases, typed links). */
export const Jrd = z
  .object({
    subject: z.string().openapi({ example: 'acct:alice@l2.example' }),
    aliases: z.array(z.string().url()),
    links: z.array(z.object({ rel: z.string(), type: z.string().optional(), href: z.string().url() })),
  })
  .openapi('Jrd');

export const NodeInfoLinks = z
  .object({ links: z.array(z.object({ rel: z.string().url(), href: z.string().url() })) })
  .openapi('NodeInfoLinks');

/** NodeInfo 2.1 (nodeinfo.diaspora.software/ns/schema/2.1), with the counts a crawler shows. */
export const NodeInfo = z
  .object({
    version: z.literal('2.1'),
    software: z.object({ name: z.literal('l2'), version: z.string() }),
    protocols: z.array(z.literal('activitypub')),
    services: z.object({ inbound: z.array(z.string()), outbound: z.array(z.string()) }),
    openRegistrations: z.boolean(),
    usage: z.object({
      users: z.object({ total: z.number().int().min(0) }),
      localPosts: z.number().int().min(0),
    }),
    metadata: z.object({}).loose(),
  })
  .openapi('NodeInfo');
