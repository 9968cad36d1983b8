// What federation keeps: who follows whom, the keys of remote actors, the service actor's own key pair.
import type { ObjectId } from 'mongodb';
import type { RemoteKey } from '../../../../application/ports/remote-key-store.js';
import { hostKey, hostKeyOfUrl, type DomainRule, type RuleHost } from '../../../../domain/domain-rules.js';
import type { FollowRequest } from '../../../../domain/follow-request.js';
import type { Follower } from '../../../../domain/follower.js';
import type { Username } from '../../../../domain/user.js';
import type { InstanceKey } from '../../stored-records.js';
import type { MongoCodec } from '../mongo-codec.js';

/** A follow; `seq` is its position among all follows, from the `follower_seq` counter. */
export interface FollowerDocument {
  _id?: ObjectId;
  seq: number;
  username: string;
  actor: string;
  inbox: string;
  sharedInbox: string | null;
  followId: string | null;
  followedAt: Date;
  /** Derived, never exported: the key of the actor's host (domain-rules.ts), which domain rules find it by. */
  hostKey: string | null;
}

export const FOLLOWER_DOCUMENTS: MongoCodec<Follower, Omit<FollowerDocument, 'seq'>> = {
  toDocument: (f) => ({
    username: f.username,
    actor: f.actor,
    inbox: f.inbox,
    sharedInbox: f.sharedInbox,
    followId: f.followId,
    followedAt: f.followedAt,
    hostKey: hostKeyOfUrl(f.actor),
  }),
  fromDocument: (doc) => ({
    username: doc.username as Username,
    actor: doc.actor,
    inbox: doc.inbox,
    sharedInbox: doc.sharedInbox,
    followId: doc.followId,
    followedAt: doc.followedAt,
  }),
};

/** A follow request; `seq` is its place, from `follow_request_seq`; `hostKey` derived from the actor (never read). */
export interface FollowRequestDocument {
  _id?: ObjectId;
  seq: number;
  id: string;
  username: string;
  actor: string;
  inbox: string;
  sharedInbox: string | null;
  followId: string | null;
  hostKey: string;
  requestedAt: Date;
}

export const FOLLOW_REQUEST_DOCUMENTS: MongoCodec<FollowRequest, Omit<FollowRequestDocument, 'seq'>> = {
  toDocument: (r) => ({
    id: r.id,
    username: r.username,
    actor: r.actor,
    inbox: r.inbox,
    sharedInbox: r.sharedInbox,
    followId: r.followId,
    hostKey: hostKeyOfUrl(r.actor) ?? '',
    requestedAt: r.requestedAt,
  }),
  fromDocument: (doc) => ({
    id: doc.id,
    username: doc.username as Username,
    actor: doc.actor,
    inbox: doc.inbox,
    sharedInbox: doc.sharedInbox,
    followId: doc.followId,
    requestedAt: doc.requestedAt,
  }),
};

/** A remote actor's public key, keyed by its key id. */
export interface RemoteKeyDocument {
  _id: string;
  owner: string;
  publicKeyPem: string;
  fetchedAt: Date;
}

export const REMOTE_KEY_DOCUMENTS: MongoCodec<RemoteKey, RemoteKeyDocument> = {
  toDocument: (k) => ({
    _id: k.keyId,
    owner: k.owner,
    publicKeyPem: k.publicKeyPem,
    fetchedAt: k.fetchedAt,
  }),
  fromDocument: (doc) => ({
    keyId: doc._id,
    owner: doc.owner,
    publicKeyPem: doc.publicKeyPem,
    fetchedAt: doc.fetchedAt,
  }),
};

/** The service actor's key pair: one document, `_id` "instance". */
export interface InstanceKeyDocument {
  _id: 'instance';
  publicKeyPem: string;
  privateKeyPem: string;
  createdAt: Date;
}

export const INSTANCE_KEY_DOCUMENTS: MongoCodec<InstanceKey, InstanceKeyDocument> = {
  toDocument: (k) => ({
    _id: 'instance',
    publicKeyPem: k.publicKeyPem,
    privateKeyPem: k.privateKeyPem,
    createdAt: k.createdAt,
  }),
  fromDocument: (doc) => ({
    publicKeyPem: doc.publicKeyPem,
    privateKeyPem: doc.privateKeyPem,
    createdAt: doc.createdAt,
  }),
};

/** An operator's domain rule, unique by (kind, host). */
export interface DomainRuleDocument {
  _id?: ObjectId;
  kind: 'block' | 'allow';
  host: string;
  hostKey: string;
  createdAt: Date;
}

/** A rule's document; `hostKey` is derived from the host, never exported. */
export const DOMAIN_RULE_DOCUMENTS: MongoCodec<DomainRule, DomainRuleDocument> = {
  toDocument: (r) => ({ kind: r.kind, host: r.host, hostKey: hostKey(r.host), createdAt: r.createdAt }),
  fromDocument: (doc) => ({ kind: doc.kind, host: doc.host as RuleHost, createdAt: doc.createdAt }),
};
