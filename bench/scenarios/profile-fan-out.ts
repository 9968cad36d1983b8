// Scenario 7b: a profile change fanned out (issue 25). The fan-out user of scenario 7, with a full profile (display
// name, a bio with a link, an avatar and a header, four fields, three pins), followed by the same followers on the
// same fake servers, changes their bio a few times, one change after another. Each change is one `Update{Person}`
// to every shared inbox, signed once (LD) and HTTP-signed per inbox, through the durable queue. Measured: the time
// from each PATCH until every server has that version; the rate is deliveries ÷ those times, read against scenario
// 7's rate (activities) and the floor (a bare client's).
import { join } from 'node:path';
import type { RunningServer } from '../servers.js';
import { PASSWORD, post, seedFollowers, startHosts, USERNAME, type FanOutShape } from './fan-out.js';

export interface ProfileFanOutShape extends FanOutShape {
  /** How many profile changes are made, one after another. */
  readonly changes: number;
}

export interface ProfileFanOutResults {
  readonly hosts: number;
  readonly followersPerHost: number;
  readonly changes: number;
  /** Profile Updates the hosts received (at least hosts × changes). */
  readonly deliveries: number;
  /** The sum, over the changes, of the time from its PATCH until every host had it. */
  readonly seconds: number;
  readonly deliveriesPerSecond: number;
  /** Each change's time until every host had it, in order. */
  readonly changeSeconds: readonly number[];
  /** The size of one delivered Update{Person} (the last), as the hosts received it. */
  readonly updateBytes: number;
}

async function send(method: string, url: string, body: unknown, token: string): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

const picture = (name: string) => ({
  name,
  content_hash: `sha256:${Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64)}`,
  media_type: 'image/jpeg',
  url: `https://cdn.example/${name}.jpg`,
  description: `The ${name} of the fan-out user`,
  alt_text: `A picture standing for the fan-out user's ${name}`,
  tags: ['bench'],
});

/** The profile every change starts from: as full as the rules allow in kind (every field, pictures, pins). */
export const FULL_PROFILE = {
  display_name: 'Fan-out Bench User',
  bio:
    'Paints harbours, cranes and the sea at dusk.\nShows at the harbour gallery every summer.\n\n' +
    'Portfolio: https://portfolio.example/fanout — commissions open.',
  avatar: 'fanout-avatar',
  header: 'fanout-header',
  fields: [
    { name: 'Website', value: 'https://fanout.example' },
    { name: 'Gallery', value: 'https://gallery.example/fanout' },
    { name: 'Pronouns', value: 'they/them' },
    { name: 'Based in', value: 'The harbour' },
  ],
  pinned: ['fanout-avatar', 'fanout-header', 'fanout-work'],
  indexable: true,
};

/**
 * The user, its pictures and its profile are made on the fresh store before anyone follows (so nothing of that is
 * delivered); the service is then stopped, the followers written into the store, and the service started again.
 */
export async function profileFanOut(
  shape: ProfileFanOutShape,
  workDir: string,
  startL2: (storePath: string) => Promise<RunningServer>,
): Promise<ProfileFanOutResults> {
  const storePath = join(workDir, 'profile-fanout', 'l2.sqlite');
  let l2 = await startL2(storePath);
  let token: string;
  try {
    ({ access_token: token } = (await post(`${l2.url}/auth/register`, {
      username: USERNAME,
      password: PASSWORD,
    })) as { access_token: string });
    for (const name of ['fanout-avatar', 'fanout-header', 'fanout-work'])
      await post(`${l2.url}/assets`, picture(name), token);
    await send('PATCH', `${l2.url}/users/${USERNAME}`, FULL_PROFILE, token);
  } finally {
    await l2.stop();
  }

  const hosts = await startHosts(shape, 0, true);
  try {
    seedFollowers(storePath, hosts.ports, shape.followersPerHost);
    l2 = await startL2(storePath);
    const changeSeconds: number[] = [];
    let deliveries = 0;
    let updateBytes = 0;
    for (let i = 0; i < shape.changes; i++) {
      const started = Date.now();
      await send(
        'PATCH',
        `${l2.url}/users/${USERNAME}`,
        { bio: `${FULL_PROFILE.bio}\n\nChange ${i + 1}.` },
        token,
      );
      const reached = await hosts.nextVersion(120_000);
      changeSeconds.push((reached.at - started) / 1000);
      deliveries = reached.deliveries;
      updateBytes = reached.bytes;
    }
    const seconds = changeSeconds.reduce((a, b) => a + b, 0);
    return {
      hosts: shape.hosts,
      followersPerHost: shape.followersPerHost,
      changes: shape.changes,
      deliveries,
      seconds,
      deliveriesPerSecond: deliveries / seconds,
      changeSeconds,
      updateBytes,
    };
  } finally {
    await l2.stop();
    hosts.stop();
  }
}
