/**
 * The peer-rules oracle: what Mastodon, Pixelfed, GoToSocial, Misskey and Akkoma do with an incoming
 * ActivityStreams post or actor, as read from their source (README.md lists every rule and its file).
 *
 *   import { peers, isPicturePost } from '../support/peer-rules/index.js';
 *   for (const peer of peers) expect(isPicturePost(peer.showsPost(create)), peer.name).to.equal(true);
 */
import * as akkoma from './akkoma.js';
import * as gotosocial from './gotosocial.js';
import * as mastodon from './mastodon.js';
import * as misskey from './misskey.js';
import * as pixelfed from './pixelfed.js';
import type { Json, PostVerdict, ProfileVerdict } from './common.js';

export * from './common.js';
export { akkoma, gotosocial, mastodon, misskey, pixelfed };

export interface Peer {
  readonly name: 'Mastodon' | 'Pixelfed' | 'GoToSocial' | 'Misskey' | 'Akkoma';
  /** The platform's verdict on a Create, with its default instance settings. */
  readonly showsPost: (create: Json) => PostVerdict;
  /** The platform's verdict on an actor document (fetched). */
  readonly showsProfile: (actor: Json) => ProfileVerdict;
}

/** Every platform with its default settings, for tests that run one document through all of them. */
export const peers: readonly Peer[] = [
  {
    name: 'Mastodon',
    showsPost: (c) => mastodon.showsPost(c),
    showsProfile: (a) => mastodon.showsProfile(a),
  },
  {
    name: 'Pixelfed',
    showsPost: (c) => pixelfed.showsPost(c),
    showsProfile: (a) => pixelfed.showsProfile(a),
  },
  {
    name: 'GoToSocial',
    showsPost: (c) => gotosocial.showsPost(c),
    showsProfile: (a) => gotosocial.showsProfile(a),
  },
  { name: 'Misskey', showsPost: (c) => misskey.showsPost(c), showsProfile: (a) => misskey.showsProfile(a) },
  { name: 'Akkoma', showsPost: (c) => akkoma.showsPost(c), showsProfile: (a) => akkoma.showsProfile(a) },
];
