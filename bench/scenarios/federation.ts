// Scenario 4: what fediverse peers fetch first: webfinger, then the actor document.
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface FederationResults {
  readonly webfinger: LoadResult;
  readonly actor: LoadResult;
}

export async function federationReads(
  base: string,
  domain: string,
  username: string,
  profile: Profile,
): Promise<FederationResults> {
  const common = { connections: CONNECTIONS.throughput, seconds: profile.throughputSeconds };
  const webfinger = await measure(
    {
      ...common,
      url: `${base}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${username}@${domain}`)}`,
      headers: { accept: 'application/jrd+json' },
    },
    profile.warmUpSeconds,
  );
  const actor = await measure(
    { ...common, url: `${base}/users/${username}`, headers: { accept: 'application/activity+json' } },
    profile.warmUpSeconds,
  );
  return { webfinger, actor };
}
