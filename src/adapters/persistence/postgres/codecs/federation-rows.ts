// What federation keeps: who follows whom, the keys of remote actors, the service actor's own key pair, the
// operator's domain rules.
import type { RemoteKey } from '../../../../application/ports/remote-key-store.js';
import {
  hostKey,
  hostKeyOfUrl,
  type DomainRule,
  type DomainRuleKind,
  type RuleHost,
} from '../../../../domain/domain-rules.js';
import type { FollowRequest } from '../../../../domain/follow-request.js';
import type { Follower } from '../../../../domain/follower.js';
import type { Username } from '../../../../domain/user.js';
import type { InstanceKey } from '../../stored-records.js';
import { postgresTable } from '../postgres-codec.js';

/** A follow; `seq`, its position among all follows, is the store's (an identity column). */
export const FOLLOWER_ROWS = postgresTable(
  'followers',
  {
    username: 'text',
    actor: 'text',
    inbox: 'text',
    shared_inbox: 'text?',
    follow_id: 'text?',
    host_key: 'text?',
    followed_at: 'timestamptz',
  },
  ['seq'],
).codec<Follower>({
  toRow: (f) => ({
    username: f.username,
    actor: f.actor,
    inbox: f.inbox,
    shared_inbox: f.sharedInbox,
    follow_id: f.followId,
    // Derived, never exported: the key of the actor's host, which domain rules find followers by.
    host_key: hostKeyOfUrl(f.actor),
    followed_at: f.followedAt,
  }),
  fromRow: (row) => ({
    username: row.username as Username,
    actor: row.actor,
    inbox: row.inbox,
    sharedInbox: row.shared_inbox,
    followId: row.follow_id,
    followedAt: row.followed_at,
  }),
});

/** A follow request; `seq` (an identity column) is its place, `host_key` derived from the actor (see SQLite's). */
export const FOLLOW_REQUEST_ROWS = postgresTable(
  'follow_requests',
  {
    id: 'text',
    username: 'text',
    actor: 'text',
    inbox: 'text',
    shared_inbox: 'text?',
    follow_id: 'text?',
    host_key: 'text',
    requested_at: 'timestamptz',
  },
  ['seq'],
).codec<FollowRequest>({
  toRow: (r) => ({
    id: r.id,
    username: r.username,
    actor: r.actor,
    inbox: r.inbox,
    shared_inbox: r.sharedInbox,
    follow_id: r.followId,
    host_key: hostKeyOfUrl(r.actor) ?? '',
    requested_at: r.requestedAt,
  }),
  fromRow: (row) => ({
    id: row.id,
    username: row.username as Username,
    actor: row.actor,
    inbox: row.inbox,
    sharedInbox: row.shared_inbox,
    followId: row.follow_id,
    requestedAt: row.requested_at,
  }),
});

/** A remote actor's key; `seq` (the store's) keeps the order keys were first stored in, for the export. */
export const REMOTE_KEY_ROWS = postgresTable(
  'remote_keys',
  { key_id: 'text', owner: 'text', public_key_pem: 'text', fetched_at: 'timestamptz' },
  ['seq'],
).codec<RemoteKey>({
  toRow: (k) => ({
    key_id: k.keyId,
    owner: k.owner,
    public_key_pem: k.publicKeyPem,
    fetched_at: k.fetchedAt,
  }),
  fromRow: (row) => ({
    keyId: row.key_id,
    owner: row.owner,
    publicKeyPem: row.public_key_pem,
    fetchedAt: row.fetched_at,
  }),
});

/** The service actor's key pair: the one row of `instance_actor`, whose `id` is always 1. */
export const INSTANCE_KEY_ROWS = postgresTable('instance_actor', {
  id: 'integer',
  public_key_pem: 'text',
  private_key_pem: 'text',
  created_at: 'timestamptz',
}).codec<InstanceKey>({
  toRow: (k) => ({
    id: 1,
    public_key_pem: k.publicKeyPem,
    private_key_pem: k.privateKeyPem,
    created_at: k.createdAt,
  }),
  fromRow: (row) => ({
    publicKeyPem: row.public_key_pem,
    privateKeyPem: row.private_key_pem,
    createdAt: row.created_at,
  }),
});

/** An operator's domain rule, one per (kind, host); `host_key` is derived from the host, never exported. */
export const DOMAIN_RULE_ROWS = postgresTable('domain_rules', {
  kind: 'text',
  host: 'text',
  host_key: 'text',
  created_at: 'timestamptz',
}).codec<DomainRule>({
  toRow: (r) => ({ kind: r.kind, host: r.host, host_key: hostKey(r.host), created_at: r.createdAt }),
  fromRow: (row) => ({
    kind: row.kind as DomainRuleKind,
    host: row.host as RuleHost,
    createdAt: row.created_at,
  }),
});
