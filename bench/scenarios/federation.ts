// Scenario 4: what fediverse peers fetch first: webfinger, then the actor document.
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface FederationResults {
  readonly webfinger: LoadResult;
  readonly actor: LoadResult;
  /** The size of the actor document served (issue 25: a full profile makes it about 3 KiB). */
  readonly actorBytes?: number;
  /** Whether that actor shows a profile: an avatar (`icon`), a bio (`summary`), fields and pins (`featured`). */
  readonly actorHasProfile?: boolean;
}

export async function federationReads(
  base: string,
  domain: string,
  username: string,
  profile: Profile,
): Promise<FederationResults> {
  const served = await fetch(`${base}/users/${username}`, {
    headers: { accept: 'application/activity+json' },
  });
  const text = await served.text();
  const document = JSON.parse(text) as Record<string, unknown>;
  const actorHasProfile = ['icon', 'image', 'summary', 'attachment', 'featured'].every(
    (key) => key in document,
  );
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
  return { webfinger, actor, actorBytes: Buffer.byteLength(text), actorHasProfile };
}
