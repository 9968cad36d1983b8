// Scenario 8: peers doing L2's work with other software, each in its own process and loaded like L2 —
// oidc-provider's token introspection against verify, Fedify's webfinger and actor against scenario 4.
import { readFileSync } from 'node:fs';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';
import type { Memory, RunningScript } from '../servers.js';
import { federationReads, type FederationResults } from './federation.js';

export interface IntrospectionResults {
  /** oidc-provider's version, as installed. */
  readonly version: string;
  /** `POST /token/introspection` of a valid access token, as a registered client, at 64 connections. */
  readonly introspection: LoadResult;
  readonly memoryAfterLoad: Memory;
}

export interface FedifyResults {
  /** Fedify's version, as installed. */
  readonly version: string;
  /** Webfinger and the actor, the loads of scenario 4. */
  readonly federation: FederationResults;
  readonly memoryAfterLoad: Memory;
}

/** The version of a package in the project's node_modules (Fedify exports no package.json to resolve). */
export function installedVersion(name: string): string {
  const file = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

async function get(url: string, accept: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers: { accept } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** What bench/peers/oidc-introspection-server.ts prints once it listens. */
interface OidcPeer {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenPath: string;
  readonly introspectionPath: string;
}

/**
 * Gets an access token by the client_credentials grant, checks that introspecting it answers `"active": true`,
 * measures introspection of it, and checks again afterwards. Introspection answers 200 for any token, active or
 * not, so the 2xx count alone proves nothing: a token's state only ever goes from active to inactive (expiry,
 * revocation, eviction), so active before and after means every introspection in between found it active.
 */
export async function introspection(peer: RunningScript, profile: Profile): Promise<IntrospectionResults> {
  const { clientId, clientSecret, tokenPath, introspectionPath } = peer.announced as unknown as OidcPeer;
  // client_secret_basic (RFC 6749 §2.3.1): the id and secret form-encoded, then base64.
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
    'base64',
  );
  const headers = {
    authorization: `Basic ${basic}`,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const token = (await post(`${peer.url}${tokenPath}`, headers, 'grant_type=client_credentials')) as {
    access_token?: string;
  };
  if (!token.access_token) throw new Error(`oidc-provider issued no access token: ${JSON.stringify(token)}`);
  const body = new URLSearchParams({ token: token.access_token }).toString();
  const introspectionUrl = `${peer.url}${introspectionPath}`;
  const checkActive = async (when: string) => {
    const answer = (await post(introspectionUrl, headers, body)) as { active?: boolean };
    if (answer.active !== true) throw new Error(`introspection ${when}: ${JSON.stringify(answer)}`);
  };
  await checkActive('before the load');
  const introspected = await measure(
    {
      url: introspectionUrl,
      method: 'POST',
      headers,
      body,
      connections: CONNECTIONS.throughput,
      seconds: profile.throughputSeconds,
    },
    profile.warmUpSeconds,
  );
  await checkActive('after the load');
  return {
    version: installedVersion('oidc-provider'),
    introspection: introspected,
    memoryAfterLoad: peer.memory(),
  };
}

/** What bench/peers/fedify-server.ts prints once it listens. */
interface FedifyPeer {
  readonly domain: string;
  readonly username: string;
}

/**
 * Checks that webfinger and the actor answer the right documents, then measures both with scenario 4's loads.
 * (Unlike introspection, both answer 404 for an unknown account, so their 2xx counts are sound.)
 */
export async function fedifyReads(peer: RunningScript, profile: Profile): Promise<FedifyResults> {
  const { domain, username } = peer.announced as unknown as FedifyPeer;
  const acct = `acct:${username}@${domain}`;
  const actorId = `http://${domain}/users/${username}`;
  const jrd = await get(
    `${peer.url}/.well-known/webfinger?resource=${encodeURIComponent(acct)}`,
    'application/jrd+json',
  );
  const links = (jrd.links ?? []) as { rel?: string; type?: string; href?: string }[];
  const self = links.find((l) => l.rel === 'self' && l.type === 'application/activity+json');
  if (jrd.subject !== acct || self?.href !== actorId)
    throw new Error(`Fedify's webfinger: ${JSON.stringify(jrd)}`);
  const actor = await get(`${peer.url}/users/${username}`, 'application/activity+json');
  const key = actor.publicKey as { owner?: string; publicKeyPem?: string } | undefined;
  if (
    actor.id !== actorId ||
    actor.type !== 'Person' ||
    actor.preferredUsername !== username ||
    key?.owner !== actorId ||
    !key.publicKeyPem?.startsWith('-----BEGIN PUBLIC KEY-----')
  )
    throw new Error(`Fedify's actor: ${JSON.stringify(actor)}`);
  return {
    version: installedVersion('@fedify/fedify'),
    federation: await federationReads(peer.url, domain, username, profile),
    memoryAfterLoad: peer.memory(),
  };
}
