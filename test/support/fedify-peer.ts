// A remote ActivityPub server on 127.0.0.1 built on Fedify's own signing and verification (the reference's test
// oracle): it serves an actor with its key, signs what it sends with Fedify's signRequest, and checks everything
// it receives with Fedify's verifyRequest and verifyJsonLd — sharing no code with src/.
import {
  exportJwk,
  exportSpki,
  generateCryptoKeyPair,
  getDocumentLoader,
  lookupObject,
  Object as ASObject,
  signRequest,
  verifyJsonLd,
  verifyRequest,
  type KeyCache,
} from '@fedify/fedify';
import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Fedify refuses loopback addresses unless told otherwise; its loaders fetch our L2 and the peer's documents. */
const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
export const loaders = { documentLoader, contextLoader: documentLoader };

/** A document read by Fedify's vocabulary, as a Fedify-based server reads what it receives (Create, Note, Person…). */
export const parseAs = (json: Json): Promise<ASObject> => ASObject.fromJsonLd(json, loaders);

/** What Fedify's lookupObject makes of a URL (it fetches the document, and checks its id's origin). */
export const lookUp = (url: string): Promise<ASObject | null> => lookupObject(url, loaders);

export interface Received {
  readonly path: string;
  readonly body: Json;
  readonly contentType: string;
  /** The key id Fedify's verifyRequest found the HTTP signature made with, or null when it does not verify. */
  readonly httpSignedBy: string | null;
  /** Whether Fedify's verifyJsonLd accepts the document's Linked Data signature (and its actor as key owner). */
  readonly ldVerified: boolean;
}

/** What an actor of the peer says of its other accounts (API.md §4.3): served in its actor document. */
export interface PeerActorOptions {
  /** `alsoKnownAs`: the other accounts of the same person (absent when not given). */
  alsoKnownAs?: string[];
  /** `movedTo`: the account this one moved to (absent when not given). */
  movedTo?: string;
}

export interface PeerOptions {
  /** The loopback address to listen on (default 127.0.0.1); 127.0.0.2 makes a peer on another host. */
  readonly host?: string;
  /**
   * The actors served, by name, besides `bob` (who always exists; name him here to give him aliases or a move).
   * Each answers at /users/<name>, with an inbox at /users/<name>/inbox, sharing the peer's key pair.
   */
  readonly actors?: Record<string, PeerActorOptions>;
  /** Offer a shared inbox (default true). */
  readonly sharedInbox?: boolean;
  /** Serve the key as a document of its own at …/main-key, GoToSocial style, instead of in the actor. */
  readonly keyDocument?: boolean;
  /** Answer 401 to GETs of the actor whose signature Fedify cannot verify (Mastodon's authorized fetch). */
  readonly authorizedFetch?: boolean;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  return headers;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What each inbox path answers: a status, or a request that is never answered (`'hang'`). */
export type InboxAnswer = number | 'hang';

/**
 * Keys of senders already verified, as a real server keeps them (Mastodon stores each account's key): it is how the
 * Delete of an actor — whose URL already answers 410 — is still verified. Failed fetches are not remembered.
 */
class RememberedKeys implements KeyCache {
  private readonly keys = new Map<string, Awaited<ReturnType<KeyCache['get']>>>();

  async get(keyId: URL) {
    return this.keys.get(keyId.href);
  }

  async set(keyId: URL, key: Awaited<ReturnType<KeyCache['get']>>) {
    if (key) this.keys.set(keyId.href, key);
  }
}

export class FedifyPeer {
  readonly received: Received[] = [];
  private readonly keyCache = new RememberedKeys();
  /** Every POST to an inbox, whatever was answered. */
  attempts = 0;
  /** Key ids that signed the GETs of the actor (null for an unsigned GET). */
  readonly actorFetchedBy: (string | null)[] = [];
  /** Every GET the peer was asked, by path and query (actors, keys, WebFinger): what a test counts requests by. */
  readonly gets: string[] = [];
  /** The actors served and what each says of its other accounts (a test may change them while the peer runs). */
  readonly actors: Map<string, PeerActorOptions>;
  /** What the inboxes answer; 202 unless a test says otherwise. */
  answer: InboxAnswer = 202;
  private readonly events = new EventEmitter();
  private readonly hanging = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private keys: Awaited<ReturnType<typeof generateCryptoKeyPair>>,
    public publicKeyPem: string,
    private readonly options: PeerOptions,
  ) {
    this.actors = new Map([['bob', {}], ...Object.entries(options.actors ?? {})]);
  }

  static async start(options: PeerOptions = {}): Promise<FedifyPeer> {
    const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const publicKeyPem = await exportSpki(keys.publicKey);
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const url = `http://${host}:${(server.address() as AddressInfo).port}`;
    const peer = new FedifyPeer(server, url, keys, publicKeyPem, options);
    server.on('request', (req, res) => {
      peer.handle(req).then(
        ([status, type, body]) => {
          if (status === 'hang') {
            peer.hanging.add(() => res.destroy());
            return;
          }
          res.writeHead(status, type ? { 'content-type': type } : {}).end(body);
        },
        () => res.writeHead(500).end(),
      );
    });
    return peer;
  }

  get actorId(): string {
    return this.actorIdOf('bob');
  }
  get keyId(): string {
    return this.keyIdOf('bob');
  }
  get inbox(): string {
    return `${this.actorId}/inbox`;
  }
  get sharedInbox(): string {
    return `${this.url}/inbox`;
  }
  /** host:port, as a handle names the peer: `@bob@${peer.host}`. */
  get host(): string {
    return new URL(this.url).host;
  }

  /** The id of the actor called `name` (served or not). */
  actorIdOf(name: string): string {
    return `${this.url}/users/${name}`;
  }
  keyIdOf(name: string): string {
    return this.options.keyDocument ? `${this.actorIdOf(name)}/main-key` : `${this.actorIdOf(name)}#main-key`;
  }
  /** `@name@host:port`: the handle WebFinger answers for. */
  handleOf(name: string): string {
    return `@${name}@${this.host}`;
  }

  /** The actor document Fedify-made peers serve (Mastodon's shape), with its aliases and move as Mastodon writes them. */
  actor(name = 'bob'): Json {
    const id = this.actorIdOf(name);
    const key = { id: this.keyIdOf(name), owner: id, publicKeyPem: this.publicKeyPem };
    const { alsoKnownAs, movedTo } = this.actors.get(name) ?? {};
    return {
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        'https://w3id.org/security/v1',
        {
          alsoKnownAs: { '@id': 'as:alsoKnownAs', '@type': '@id' },
          movedTo: { '@id': 'as:movedTo', '@type': '@id' },
        },
      ],
      id,
      type: 'Person',
      preferredUsername: name,
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      ...(this.options.sharedInbox === false ? {} : { endpoints: { sharedInbox: this.sharedInbox } }),
      publicKey: key,
      ...(alsoKnownAs ? { alsoKnownAs } : {}),
      ...(movedTo ? { movedTo } : {}),
    };
  }

  /** The JRD `/.well-known/webfinger` answers for `acct:<name>@<host:port>` (Mastodon's shape). */
  webfinger(name: string): Json {
    return {
      subject: `acct:${name}@${this.host}`,
      aliases: [this.actorIdOf(name)],
      links: [
        { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${this.url}/@${name}` },
        { rel: 'self', type: 'application/activity+json', href: this.actorIdOf(name) },
      ],
    };
  }

  /** The headers of `activity` POSTed to `inbox`, signed by Fedify's signRequest (preset headers signed as set). */
  async signedHeaders(
    inbox: string,
    activity: Json,
    options: { headers?: Record<string, string>; keyId?: string } = {},
  ): Promise<Headers> {
    const request = new Request(inbox, {
      method: 'POST',
      headers: {
        'content-type': 'application/activity+json',
        accept: 'application/activity+json',
        ...options.headers,
      },
      body: JSON.stringify(activity),
    });
    const signed = await signRequest(request, this.keys.privateKey, new URL(options.keyId ?? this.keyId));
    return signed.headers;
  }

  /**
   * POSTs `activity` to `inbox`, signed by Fedify's signRequest with the actor's key (under `keyId` if given).
   * `headers` are set before signing; `body` replaces the body after signing; `unsigned` sends no signature.
   */
  async send(
    inbox: string,
    activity: Json,
    options: { headers?: Record<string, string>; body?: string; unsigned?: boolean; keyId?: string } = {},
  ): Promise<Response> {
    const headers = options.unsigned
      ? new Headers({ 'content-type': 'application/activity+json', ...options.headers })
      : await this.signedHeaders(inbox, activity, options);
    return fetch(inbox, { method: 'POST', headers, body: options.body ?? JSON.stringify(activity) });
  }

  /** Replaces the actor's key pair under the same key id, as a server rotating its keys does. */
  async rotateKey(): Promise<void> {
    this.keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    this.publicKeyPem = await exportSpki(this.keys.publicKey);
  }

  /** The actor's private key as a node:crypto key, for signing with other libraries (GoToSocial, RFC 9421 peers). */
  async privateKeyObject(): Promise<KeyObject> {
    return createPrivateKey({ key: (await exportJwk(this.keys.privateKey)) as JsonWebKey, format: 'jwk' });
  }

  /** A Follow of `object` by this peer's actor. */
  follow(object: string, id = `${this.actorId}/follows/${Math.random().toString(36).slice(2)}`): Json {
    return {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'Follow',
      actor: this.actorId,
      object,
    };
  }

  /** Resolves once the inboxes have been posted to `count` times in all, or rejects after `ms`. */
  waitForAttempts(count: number, ms = 90_000): Promise<void> {
    if (this.attempts >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.events.off('attempt', listener);
        reject(new Error(`the peer saw ${this.attempts} of ${count} attempts within ${ms} ms`));
      }, ms);
      const listener = () => {
        if (this.attempts < count) return;
        clearTimeout(timer);
        this.events.off('attempt', listener);
        resolve();
      };
      this.events.on('attempt', listener);
    });
  }

  /** Resolves with the first delivery (present or future) that `matches`, or rejects after `ms`. */
  waitFor(matches: (received: Received) => boolean, ms = 90_000): Promise<Received> {
    const found = this.received.find(matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.events.off('received', listener);
        reject(new Error(`the peer received nothing matching within ${ms} ms`));
      }, ms);
      const listener = (received: Received) => {
        if (!matches(received)) return;
        clearTimeout(timer);
        this.events.off('received', listener);
        resolve(received);
      };
      this.events.on('received', listener);
    });
  }

  async close(): Promise<void> {
    for (const abort of this.hanging) abort();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage): Promise<[InboxAnswer, string?, string?]> {
    const path = req.url ?? '/';
    if (req.method === 'GET') this.gets.push(path);
    const actorPath = /^\/users\/([^/?#]+)(\/main-key|\/inbox)?$/.exec(path);
    const name = actorPath && this.actors.has(actorPath[1]!) ? actorPath[1]! : null;
    if (req.method === 'GET' && name !== null && actorPath?.[2] === undefined) {
      const signer = await verifyRequest(
        new Request(`${this.url}${path}`, { headers: headersOf(req) }),
        loaders,
      );
      this.actorFetchedBy.push(signer?.id?.href ?? null);
      if (this.options.authorizedFetch && !signer) return [401];
      return [200, 'application/activity+json', JSON.stringify(this.actor(name))];
    }
    if (req.method === 'GET' && name !== null && actorPath?.[2] === '/main-key' && this.options.keyDocument) {
      const key = {
        '@context': 'https://w3id.org/security/v1',
        id: this.keyIdOf(name),
        owner: this.actorIdOf(name),
        publicKeyPem: this.publicKeyPem,
      };
      return [200, 'application/activity+json', JSON.stringify(key)];
    }
    if (req.method === 'GET' && path.startsWith('/.well-known/webfinger?')) return this.answerWebfinger(path);
    if (req.method === 'POST' && (path === '/inbox' || (name !== null && actorPath?.[2] === '/inbox'))) {
      const body = await readBody(req);
      this.attempts++;
      this.events.emit('attempt');
      if (this.answer === 'hang') return ['hang'];
      const request = new Request(`${this.url}${path}`, { method: 'POST', headers: headersOf(req), body });
      const key = await verifyRequest(request, { ...loaders, keyCache: this.keyCache });
      const json = JSON.parse(body.toString('utf8')) as Json;
      const received: Received = {
        path,
        body: json,
        contentType: req.headers['content-type'] ?? '',
        httpSignedBy: key?.id?.href ?? null,
        ldVerified: json.signature ? await verifyJsonLd(json, loaders) : false,
      };
      if (this.answer >= 200 && this.answer < 300) {
        this.received.push(received);
        this.events.emit('received', received);
      }
      return [this.answer];
    }
    return [404];
  }

  /** `acct:<name>@<host:port>` of a served actor → its JRD; anything else → 404 (400 without a resource). */
  private answerWebfinger(path: string): [number, string?, string?] {
    const resource = new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('resource');
    if (resource === null) return [400];
    const acct = /^acct:([^@]+)@(.+)$/.exec(resource);
    if (acct === null || acct[2] !== this.host || !this.actors.has(acct[1]!)) return [404];
    return [200, 'application/jrd+json', JSON.stringify(this.webfinger(acct[1]!))];
  }
}
