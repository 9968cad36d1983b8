/**
 * What a crash test's clients know of the L2 store, and the checks of it after a restart.
 *
 * Every write the clients send is recorded here before it is sent. Its answer decides what the store must hold:
 * a 2xx answer makes the write certain (it must survive any later kill -9), a lost connection makes it possible
 * (it may or may not be there, but never half). Each entity keeps the set of states it may be in; a check after a
 * restart reads the real state, fails when it is not one of them, and narrows the set to it.
 *
 * Some users have remote followers (written into the store before the first start), on fake inbox hosts that record
 * every delivery: each activity of the log by such a user must be delivered to, or queued for, each of their inboxes,
 * and nothing may be delivered that the log does not hold (the transactional outbox).
 */
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import type { CrashStore, JobRow, SeededFollower } from './crash-stores.js';
import { request, type HttpResponse } from '../support/http.js';
import type { FakeInboxHost, ReceivedDelivery } from './fake-inbox-host.js';
import { pick, type Rng } from './prng.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const PASSWORD = 'correct horse battery staple';
const JSON_ACCEPT = { accept: 'application/json' };
const AP_ACCEPT = { accept: 'application/activity+json' };

type TokenState = 'live' | 'revoked' | 'maybe';
type Presence = 'yes' | 'no' | 'maybe';

export interface TokenModel {
  readonly token: string;
  readonly hash: string;
  readonly jti: string;
  readonly username: string;
  /** The session that created a scoped token. */
  readonly sid: string | null;
  /** The L1 server a scoped token is for. */
  readonly l1: string | null;
  state: TokenState;
  /** A revocation of it was answered 2xx: it must stay revoked, and (scoped) its notice must go out. */
  revocationAcknowledged: boolean;
}

interface UserModel {
  readonly name: string;
  registered: Presence;
  /** The session the user's actor works with (null: log in first). */
  session: TokenModel | null;
  readonly tokens: TokenModel[];
  readonly attachments: Map<string, Presence>;
  readonly assets: AssetModel[];
  nextAsset: number;
}

/** States an asset may be in: 'absent', 'deleted' or 'live:<description>'. */
interface AssetModel {
  readonly name: string;
  readonly owner: string;
  possible: Set<string>;
  /** The state a cut-off write would have left it in (to count how often such writes committed). */
  cutOff?: string;
}

interface ActivityItem {
  idx: number;
  type: string;
  actor: string;
  object: string;
  published: string;
}

type JobKind = 'revocation_notice' | 'activity_delivery';

const isLive = (state: string) => state.startsWith('live:');
const certainLive = (asset: AssetModel) => asset.possible.size === 1 && [...asset.possible].every(isLive);

function claimsOf(token: string): { jti: string; sid?: string; l1_server?: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    jti: string;
    sid?: string;
    l1_server?: string;
  };
}

export class CrashWorld {
  readonly users = new Map<string, UserModel>();
  readonly assets = new Map<string, AssetModel>();
  readonly tokens: TokenModel[] = [];
  /** idx → the activity a 2xx answer said it appended there. */
  readonly ackedActivities = new Map<number, { type: string; object: string; actor: string }>();
  /** Everything found wrong, with the round it was found in. */
  readonly problems: string[] = [];
  /** Token hash → the statuses the fake L1 servers answered its notices with. */
  readonly noticeAnswers = new Map<string, number[]>();
  /** Hashes of notices found queued in the file right after a kill. */
  readonly queuedAtKill = new Set<string>();
  /** Leases that processes held when they were killed: their jobs wait for the lease to run out. */
  readonly deadLeases = new Set<string>();
  /** Username → the inboxes its activities go to (a follower's shared inbox when it has one), once each. */
  readonly followers = new Map<string, string[]>();
  /** The log as last read: idx → entry. Committed entries never change, so it only grows. */
  log = new Map<number, ActivityItem>();
  /** `<idx> <inbox>` → how many times an inbox host answered 2xx to that activity (checked against the log). */
  readonly deliveredTo = new Map<string, number>();
  /** `<activity id> <inbox>` → attempts the inbox host received. */
  private readonly deliveryAttempts = new Map<string, number>();
  /** How many deliveries of each inbox host were checked already. */
  private readonly receivedChecked = new Map<FakeInboxHost, number>();
  readonly stats = {
    acknowledged: 0,
    lost: 0,
    rejected: 0,
    activities: 0,
    /** Pairs (activity, follower inbox) the log requires, as of the last check. */
    deliveriesRequired: 0,
    /**
     * Deliveries answered 2xx, and those of them that repeat one (at least once is the rule: a killed process's
     * deliveries are sent again once its lease runs out).
     */
    delivered: 0,
    redelivered: 0,
    /** Deliveries answered 503 (their first attempt), to be retried. */
    deliveriesRefused: 0,
    /** Cut-off writes found, after the restart, to have committed… or not. */
    cutOffCommitted: 0,
    cutOffNotCommitted: 0,
  };
  round = 0;

  private touchedUsers = new Set<UserModel>();
  private touchedAssets = new Set<AssetModel>();
  private touchedTokens = new Set<TokenModel>();
  private queuedThisRound = new Set<string>();
  private nextUser = 0;
  private nextValue = 0;

  constructor(
    private readonly l1Servers: readonly string[],
    private readonly store: CrashStore,
    /** The server's PUBLIC_URL: activity, actor and asset ids start with it. */
    private readonly publicUrl: string,
    private readonly inboxHosts: readonly FakeInboxHost[] = [],
  ) {}

  problem(message: string): void {
    this.problems.push(`round ${this.round}: ${message}`);
  }

  /** The fake L1 servers' notice handler: the first attempt of about a quarter of the notices is answered 503. */
  answerNotice(body: Record<string, unknown>): number {
    const hash = String(body.token_hash);
    const answers = this.noticeAnswers.get(hash) ?? [];
    const status = answers.length === 0 && parseInt(hash[0] ?? '0', 16) < 4 ? 503 : 200;
    answers.push(status);
    this.noticeAnswers.set(hash, answers);
    return status;
  }

  /** The inbox hosts' answer: the first attempt of about one delivery in eight is answered 503 (retried later). */
  answerDelivery(delivery: Omit<ReceivedDelivery, 'status'>): number {
    const key = `${delivery.id} ${delivery.inbox}`;
    const attempts = (this.deliveryAttempts.get(key) ?? 0) + 1;
    this.deliveryAttempts.set(key, attempts);
    return attempts === 1 && parseInt(sha256(key)[0]!, 16) < 2 ? 503 : 202;
  }

  /**
   * Creates the file (the server's own migrations) and gives users `cr0`…`cr<users - 1>` — the first `always` of
   * them, then every other one — remote followers on the inbox hosts, in three shapes: one follower with only a
   * personal inbox; two followers sharing a host's shared inbox and one on another host; shared inboxes on two
   * hosts and two personal inboxes on a third. Before the first start: nobody follows or unfollows afterwards.
   */
  async seedFollowers(users: number, always: number): Promise<void> {
    const hosts = this.inboxHosts.map((host) => host.url);
    if (hosts.length < 3) throw new Error('seedFollowers needs three inbox hosts');
    const rows: SeededFollower[] = [];
    for (let n = 0; n < users; n++) {
      if (n >= always && n % 2 === 1) continue;
      const username = `cr${n}`;
      const host = (i: number) => hosts[(n + i) % hosts.length]!;
      const follower = (h: number, name: string, shared: boolean) => ({
        actor: `${host(h)}/users/${username}_${name}`,
        inbox: `${host(h)}/users/${username}_${name}/inbox`,
        shared: shared ? `${host(h)}/inbox` : null,
      });
      const shape = [
        [follower(0, 'a', false)],
        [follower(0, 'a', true), follower(0, 'b', true), follower(1, 'c', false)],
        [follower(0, 'a', true), follower(1, 'b', true), follower(2, 'c', false), follower(2, 'd', false)],
      ][n % 3]!;
      for (const f of shape) rows.push({ username, ...f, followId: `${f.actor}#follows/${username}` });
      this.followers.set(username, [...new Set(shape.map((f) => f.shared ?? f.inbox))]);
    }
    await this.store.seedFollowers(rows);
  }

  private delivered(hash: string): boolean {
    return (this.noticeAnswers.get(hash) ?? []).some((status) => status >= 200 && status < 300);
  }

  /** Users an actor can work as this round. */
  registeredUsers(): string[] {
    return [...this.users.values()].filter((u) => u.registered === 'yes').map((u) => u.name);
  }

  // ---------------------------------------------------------------- workload

  /** One client: registers a new user (when `username` is null) or works as an existing one, until cut off. */
  async actor(base: string, username: string | null, rng: Rng, maxOps: number): Promise<void> {
    const user = username === null ? await this.register(base) : this.users.get(username)!;
    if (!user) return;
    for (let i = 0; i < maxOps; i++) if (!(await this.step(base, user, rng))) return;
  }

  /** Sends one request; null when the connection failed (the server was killed): the write is unacknowledged. */
  private async send(
    base: string,
    method: string,
    path: string,
    body?: unknown,
    token?: TokenModel,
  ): Promise<HttpResponse | null> {
    try {
      const response = await request(method, base + path, body, {
        headers: JSON_ACCEPT,
        ...(token ? { token: token.token } : {}),
      });
      if (response.status >= 200 && response.status < 300) this.stats.acknowledged++;
      else this.stats.rejected++;
      return response;
    } catch {
      this.stats.lost++;
      return null;
    }
  }

  /** An answer the workload never provokes (it only sends writes that should succeed). */
  private unexpected(what: string, response: HttpResponse): void {
    this.problem(`${what} answered ${response.status} ${response.text.slice(0, 200)}`);
  }

  private addToken(token: string, user: UserModel): TokenModel {
    const claims = claimsOf(token);
    const model: TokenModel = {
      token,
      hash: sha256(token),
      jti: claims.jti,
      username: user.name,
      sid: claims.sid ?? null,
      l1: claims.l1_server ?? null,
      state: 'live',
      revocationAcknowledged: false,
    };
    this.tokens.push(model);
    user.tokens.push(model);
    return model;
  }

  private revoked(token: TokenModel): void {
    token.state = 'revoked';
    token.revocationAcknowledged = true;
    this.touchedTokens.add(token);
  }

  private maybeRevoked(token: TokenModel): void {
    if (token.state !== 'revoked') token.state = 'maybe';
    this.touchedTokens.add(token);
  }

  private async register(base: string): Promise<UserModel | null> {
    const user: UserModel = {
      name: `cr${this.nextUser++}`,
      registered: 'maybe',
      session: null,
      tokens: [],
      attachments: new Map(),
      assets: [],
      nextAsset: 0,
    };
    this.users.set(user.name, user);
    this.touchedUsers.add(user);
    const response = await this.send(base, 'POST', '/auth/register', {
      username: user.name,
      password: PASSWORD,
    });
    if (!response) return null;
    if (response.status !== 201) {
      this.unexpected(`register ${user.name}`, response);
      return null;
    }
    user.registered = 'yes';
    user.session = this.addToken(response.json.access_token as string, user);
    return user;
  }

  /** One operation of `user`'s actor; false once the actor must stop (connection lost or unexpected answer). */
  private async step(base: string, user: UserModel, rng: Rng): Promise<boolean> {
    this.touchedUsers.add(user);
    const session = user.session;
    if (!session) return this.login(base, user);
    const r = rng();
    const live = user.assets.filter(certainLive);
    const scoped = user.tokens.filter((t) => t.l1 !== null && t.state === 'live');
    const l1 = pick(rng, this.l1Servers)!;
    if (r < 0.28 || (r < 0.52 && live.length === 0)) return this.createAsset(base, user, session);
    if (r < 0.45) return this.updateAsset(base, session, pick(rng, live)!);
    if (r < 0.52) return this.deleteAsset(base, session, pick(rng, live)!);
    if (r < 0.66 || (r < 0.8 && scoped.length === 0)) return this.attach(base, user, session, l1);
    if (r < 0.73) return this.detach(base, user, session, l1);
    if (r < 0.8) return this.logoutScoped(base, pick(rng, scoped)!);
    if (r < 0.87) return this.logout(base, user, session, false);
    if (r < 0.89) return this.logout(base, user, session, true);
    return this.login(base, user);
  }

  private async login(base: string, user: UserModel): Promise<boolean> {
    const response = await this.send(base, 'POST', '/auth/login', {
      username: user.name,
      password: PASSWORD,
    });
    if (!response) return false;
    if (response.status !== 200) {
      this.unexpected(`login ${user.name}`, response);
      return false;
    }
    user.session = this.addToken(response.json.access_token as string, user);
    return true;
  }

  private async attach(base: string, user: UserModel, session: TokenModel, l1: string): Promise<boolean> {
    const before = user.attachments.get(l1) ?? 'no';
    const response = await this.send(base, 'POST', '/renderers/attach', { l1_server: l1 }, session);
    if (response?.status === 201) {
      this.addToken(response.json.access_token as string, user);
      user.attachments.set(l1, 'yes');
      return true;
    }
    if (before !== 'yes') user.attachments.set(l1, 'maybe');
    if (response) this.unexpected(`attach ${user.name} ${l1}`, response);
    return false;
  }

  private async detach(base: string, user: UserModel, session: TokenModel, l1: string): Promise<boolean> {
    const before = user.attachments.get(l1) ?? 'no';
    const forServer = user.tokens.filter((t) => t.l1 === l1);
    const response = await this.send(base, 'POST', '/renderers/detach', { l1_server: l1 }, session);
    if (response?.status === 200) {
      for (const token of forServer) this.revoked(token);
      user.attachments.set(l1, 'no');
      return true;
    }
    for (const token of forServer) this.maybeRevoked(token);
    if (before !== 'no') user.attachments.set(l1, 'maybe');
    if (response) this.unexpected(`detach ${user.name} ${l1}`, response);
    return false;
  }

  /** Logs out the session (its scoped tokens go with it), or with `everywhere` every token of the user. */
  private async logout(
    base: string,
    user: UserModel,
    session: TokenModel,
    everywhere: boolean,
  ): Promise<boolean> {
    const affected = everywhere
      ? [...user.tokens]
      : [session, ...user.tokens.filter((t) => t.sid === session.jti)];
    user.session = null;
    const response = await this.send(
      base,
      'POST',
      '/auth/logout',
      everywhere ? { everywhere: true } : undefined,
      session,
    );
    if (response?.status === 200) {
      for (const token of affected) this.revoked(token);
      return true;
    }
    for (const token of affected) this.maybeRevoked(token);
    if (response) this.unexpected(`logout ${user.name}${everywhere ? ' everywhere' : ''}`, response);
    return false;
  }

  /** An L1 server's token revoking itself. */
  private async logoutScoped(base: string, token: TokenModel): Promise<boolean> {
    const response = await this.send(base, 'POST', '/auth/logout', undefined, token);
    if (response?.status === 200) {
      this.revoked(token);
      return true;
    }
    this.maybeRevoked(token);
    if (response) this.unexpected(`logout of a scoped token of ${token.username}`, response);
    return false;
  }

  private acknowledgedActivity(response: HttpResponse, type: string, object: string, actor: string): void {
    const idx = (response.json.activity as { idx?: unknown } | undefined)?.idx;
    if (typeof idx !== 'number') {
      this.problem(`${type} of ${object} answered without an activity idx: ${response.text.slice(0, 200)}`);
      return;
    }
    const earlier = this.ackedActivities.get(idx);
    if (earlier)
      this.problem(`idx ${idx} acknowledged twice: ${JSON.stringify(earlier)} and ${type} ${object}`);
    this.ackedActivities.set(idx, { type, object, actor });
  }

  private async createAsset(base: string, user: UserModel, session: TokenModel): Promise<boolean> {
    const asset: AssetModel = {
      name: `${user.name}_${user.nextAsset++}`,
      owner: user.name,
      possible: new Set(['absent']),
    };
    this.assets.set(asset.name, asset);
    user.assets.push(asset);
    this.touchedAssets.add(asset);
    const description = `v${this.nextValue++}`;
    const response = await this.send(
      base,
      'POST',
      '/assets',
      {
        name: asset.name,
        content_hash: `sha256:${sha256(asset.name)}`,
        media_type: 'image/png',
        description,
      },
      session,
    );
    if (response?.status === 201) {
      asset.possible = new Set([`live:${description}`]);
      this.acknowledgedActivity(response, 'Create', asset.name, user.name);
      return true;
    }
    asset.possible.add(`live:${description}`);
    asset.cutOff = `live:${description}`;
    if (response) this.unexpected(`create ${asset.name}`, response);
    return false;
  }

  private async updateAsset(base: string, session: TokenModel, asset: AssetModel): Promise<boolean> {
    this.touchedAssets.add(asset);
    const description = `v${this.nextValue++}`;
    const response = await this.send(base, 'PATCH', `/assets/${asset.name}`, { description }, session);
    if (response?.status === 200) {
      asset.possible = new Set([`live:${description}`]);
      this.acknowledgedActivity(response, 'Update', asset.name, asset.owner);
      return true;
    }
    asset.possible.add(`live:${description}`);
    asset.cutOff = `live:${description}`;
    if (response) this.unexpected(`update ${asset.name}`, response);
    return false;
  }

  private async deleteAsset(base: string, session: TokenModel, asset: AssetModel): Promise<boolean> {
    this.touchedAssets.add(asset);
    const response = await this.send(base, 'DELETE', `/assets/${asset.name}`, undefined, session);
    if (response?.status === 200) {
      asset.possible = new Set(['deleted']);
      this.acknowledgedActivity(response, 'Delete', asset.name, asset.owner);
      return true;
    }
    asset.possible.add('deleted');
    asset.cutOff = 'deleted';
    if (response) this.unexpected(`delete ${asset.name}`, response);
    return false;
  }

  // ---------------------------------------------------------------- the file, read-only

  private readJobs(kind: JobKind = 'revocation_notice'): Promise<JobRow[]> {
    return this.store.readJobs(kind);
  }

  private static hashOf(job: JobRow): string {
    return (JSON.parse(job.payload) as { body: { token_hash: string } }).body.token_hash;
  }

  /**
   * Right after a kill: which notices the file holds queued, and which leases died with the process; how many
   * deliveries are queued (and leased: held by a killed process until the lease runs out).
   */
  async snapshotAfterKill(): Promise<{
    queued: number;
    leased: number;
    deliveries: number;
    deliveriesLeased: number;
  }> {
    const pending = (await this.readJobs()).filter((job) => job.state === 'pending');
    let leased = 0;
    for (const job of pending) {
      this.queuedAtKill.add(CrashWorld.hashOf(job));
      this.queuedThisRound.add(CrashWorld.hashOf(job));
      if (job.lease_id !== null) {
        this.deadLeases.add(job.lease_id);
        leased++;
      }
    }
    const now = Date.now();
    const deliveries = (await this.readJobs('activity_delivery')).filter((job) => job.state === 'pending');
    const deliveriesLeased = deliveries.filter((job) => (job.lease_until ?? 0) > now).length;
    return { queued: pending.length, leased, deliveries: deliveries.length, deliveriesLeased };
  }

  // ---------------------------------------------------------------- checks after a restart

  /**
   * Reads back what this round touched (everything, when `all`) from the restarted server and checks it against
   * what the clients were told; narrows every "maybe" to what is there.
   */
  async check(base: string, all: boolean): Promise<void> {
    const limit = pLimit(8);
    const tokens = all ? this.tokens : [...this.touchedTokens];
    const users = all ? [...this.users.values()] : [...this.touchedUsers];
    const assets = all ? [...this.assets.values()] : [...this.touchedAssets];
    this.touchedTokens = new Set();
    this.touchedUsers = new Set();
    this.touchedAssets = new Set();

    await Promise.all(tokens.map((token) => limit(() => this.checkToken(base, token))));
    await Promise.all(users.map((user) => limit(() => this.checkUser(base, user))));
    const byAsset = await this.checkLog(base);
    await Promise.all(assets.map((asset) => limit(() => this.checkAsset(base, asset, byAsset))));
    // After the log was read: nothing writes to it while the clients are stopped.
    await this.checkDeliveries();
    const queuedAtThisKill = this.queuedThisRound;
    this.queuedThisRound = new Set();
    if (!all)
      await this.checkNotices(
        new Set([...queuedAtThisKill, ...tokens.filter((t) => t.l1 !== null).map((t) => t.hash)]),
      );
  }

  /**
   * Every scoped token among `hashes` that is now revoked (and every notice queued at the kill) has its notice
   * delivered or queued. The jobs are read first: a notice's answer is recorded before its job leaves the queue.
   */
  private async checkNotices(hashes: Set<string>): Promise<void> {
    const queued = new Set(
      (await this.readJobs()).filter((job) => job.state === 'pending').map(CrashWorld.hashOf),
    );
    for (const [hash, why] of this.requiredNotices())
      if (hashes.has(hash) && !this.delivered(hash) && !queued.has(hash))
        this.problem(`notice ${hash.slice(0, 12)}… (${why}) was neither delivered nor is it queued`);
  }

  private countCutOff(committed: boolean): void {
    if (committed) this.stats.cutOffCommitted++;
    else this.stats.cutOffNotCommitted++;
  }

  private async checkToken(base: string, token: TokenModel): Promise<void> {
    const verdict = await request('POST', `${base}/auth/verify`, {
      token: token.token,
      ...(token.l1 ? { l1_server: token.l1 } : {}),
    });
    const revoked = verdict.status === 401 && verdict.json?.code === 'token_revoked';
    if (token.state === 'revoked' && !revoked) {
      this.problem(
        `token of ${token.username} (${token.l1 ? `scoped to ${token.l1}` : 'session'}, jti ${token.jti}) ` +
          `was revoked with a 2xx answer but /auth/verify now says ${verdict.status} ${verdict.text.slice(0, 120)}`,
      );
    } else if (revoked) {
      if (token.state === 'maybe') this.countCutOff(true);
      token.state = 'revoked';
    } else if (verdict.status === 200) {
      if (token.state === 'maybe') this.countCutOff(false);
      token.state = 'live';
    } else {
      this.problem(`/auth/verify of a token of ${token.username}: ${verdict.status} ${verdict.text}`);
    }
    const user = this.users.get(token.username);
    if (user?.session === token && token.state !== 'live') user.session = null;
  }

  private async checkUser(base: string, user: UserModel): Promise<void> {
    if (user.registered === 'no') return;
    const actor = await request('GET', `${base}/users/${user.name}`, undefined, { headers: AP_ACCEPT });
    if (actor.status === 404 && user.registered === 'maybe') {
      this.countCutOff(false);
      user.registered = 'no';
      return;
    }
    if (actor.status !== 200) {
      this.problem(`registration of ${user.name} (${user.registered}): GET /users answers ${actor.status}`);
      return;
    }
    const pem = (actor.json?.publicKey as { publicKeyPem?: unknown } | undefined)?.publicKeyPem;
    if (typeof pem !== 'string' || !pem.includes('BEGIN PUBLIC KEY'))
      this.problem(`user ${user.name} has no public key: ${actor.text.slice(0, 300)}`);
    if (user.registered === 'maybe') this.countCutOff(true);
    user.registered = 'yes';

    const login = await request('POST', `${base}/auth/login`, { username: user.name, password: PASSWORD });
    if (login.status !== 200) {
      this.problem(`user ${user.name} exists but cannot log in: ${login.status} ${login.text.slice(0, 200)}`);
      return;
    }
    const fresh = this.addToken(login.json.access_token as string, user);
    user.session ??= fresh;

    const renderers = await request('GET', `${base}/renderers`, undefined, {
      token: fresh.token,
      headers: JSON_ACCEPT,
    });
    if (renderers.status !== 200) {
      this.problem(`GET /renderers for ${user.name}: ${renderers.status}`);
      return;
    }
    const attached = new Set((renderers.json.items as { l1_server: string }[]).map((item) => item.l1_server));
    for (const l1 of this.l1Servers) {
      const expected = user.attachments.get(l1) ?? 'no';
      const found = attached.has(l1);
      if (expected === 'yes' && !found) this.problem(`acknowledged attachment ${user.name} → ${l1} is gone`);
      if (expected === 'no' && found) this.problem(`attachment ${user.name} → ${l1} is back after a detach`);
      user.attachments.set(l1, found ? 'yes' : 'no');
    }
    for (const l1 of attached)
      if (!this.l1Servers.includes(l1)) this.problem(`${user.name} attached to an unknown ${l1}`);

    // An attach records the attachment before it issues the token, a detach removes it and revokes them: no
    // scoped token may be valid for an L1 server the user is not attached to (half of a detach).
    for (const l1 of this.l1Servers.filter((server) => !attached.has(server))) {
      for (const token of user.tokens.filter((t) => t.l1 === l1 && t.state !== 'revoked')) {
        await this.checkToken(base, token);
        if (token.state === 'live')
          this.problem(
            `scoped token of ${user.name} (jti ${token.jti}) still valid, but ${l1} is no longer attached: ` +
              'half of a detach (attachment removed, tokens not revoked)',
          );
      }
    }
  }

  /** Reads the whole activity log: gap-free, every acknowledged activity where its answer said. */
  private async checkLog(base: string): Promise<Map<string, ActivityItem[]>> {
    const items: ActivityItem[] = [];
    let total = -1;
    let path: string | null = '/activities?limit=100';
    while (path) {
      const page: HttpResponse = await request('GET', base + path, undefined, { headers: JSON_ACCEPT });
      if (page.status !== 200) {
        this.problem(`GET ${path}: ${page.status}`);
        return new Map();
      }
      if (total === -1) total = page.json.total as number;
      items.push(...(page.json.items as ActivityItem[]));
      const next = page.json.next as string | null;
      path = next === null ? null : new URL(next).pathname + new URL(next).search;
    }
    this.stats.activities = items.length;
    const seen = new Map<number, ActivityItem>();
    for (const item of items) {
      if (seen.has(item.idx)) this.problem(`activity idx ${item.idx} listed twice`);
      seen.set(item.idx, item);
    }
    this.log = seen;
    if (total !== items.length) this.problem(`GET /activities total ${total}, but ${items.length} listed`);
    for (let idx = 0; idx < seen.size; idx++)
      if (!seen.has(idx)) this.problem(`activity log has a gap at idx ${idx} (${seen.size} activities)`);
    for (const [idx, expected] of this.ackedActivities) {
      const found = seen.get(idx);
      if (!found) this.problem(`acknowledged ${expected.type} of ${expected.object} (idx ${idx}) is missing`);
      else if (
        found.type !== expected.type ||
        found.object !== expected.object ||
        found.actor !== expected.actor
      )
        this.problem(
          `idx ${idx} was acknowledged as ${expected.type} ${expected.object} by ${expected.actor}, ` +
            `now holds ${found.type} ${found.object} by ${found.actor}`,
        );
    }
    const byAsset = new Map<string, ActivityItem[]>();
    for (const item of [...seen.values()].sort((a, b) => a.idx - b.idx)) {
      const asset = this.assets.get(item.object);
      if (!asset) this.problem(`activity ${item.idx} is about an asset never written: ${item.object}`);
      else if (asset.owner !== item.actor)
        this.problem(`activity ${item.idx} about ${item.object} has actor ${item.actor}`);
      byAsset.set(item.object, [...(byAsset.get(item.object) ?? []), item]);
    }
    return byAsset;
  }

  /** The asset is in a state its writes allow, and exactly as its activities say (no half of an append). */
  private async checkAsset(
    base: string,
    asset: AssetModel,
    byAsset: Map<string, ActivityItem[]>,
  ): Promise<void> {
    const response = await request('GET', `${base}/assets/${asset.name}`, undefined, {
      headers: JSON_ACCEPT,
    });
    let state: string;
    if (response.status === 404) state = 'absent';
    else if (response.status === 410) state = 'deleted';
    else if (response.status === 200) state = `live:${response.json.description as string}`;
    else {
      this.problem(`GET /assets/${asset.name}: ${response.status} ${response.text.slice(0, 200)}`);
      return;
    }
    if (!asset.possible.has(state))
      this.problem(
        `asset ${asset.name} is ${state}; its writes allow only ${[...asset.possible].join(' | ')}`,
      );
    asset.possible = new Set([state]);
    if (asset.cutOff !== undefined) this.countCutOff(asset.cutOff === state);
    delete asset.cutOff;

    const activities = byAsset.get(asset.name) ?? [];
    const label = `${asset.name} (${state}; activities ${activities.map((a) => `${a.idx}:${a.type}`).join(',')})`;
    if (state === 'absent') {
      if (activities.length > 0) this.problem(`activities without their asset: ${label}`);
      return;
    }
    const [first] = activities;
    const last = activities[activities.length - 1];
    if (!first || !last || first.type !== 'Create') {
      this.problem(`asset without its Create activity: ${label}`);
      return;
    }
    if (activities.filter((a) => a.type === 'Create').length !== 1)
      this.problem(`more than one Create: ${label}`);
    const deletes = activities.filter((a) => a.type === 'Delete');
    if (deletes.length > 1 || (deletes.length === 1 && last.type !== 'Delete'))
      this.problem(`Delete not last, or twice: ${label}`);
    if (state === 'deleted') {
      if (last.type !== 'Delete') this.problem(`asset deleted without its Delete activity: ${label}`);
      return;
    }
    if (last.type === 'Delete') {
      this.problem(`Delete activity appended but the asset is still live: ${label}`);
      return;
    }
    const body = response.json as {
      owner: string;
      created_at: string;
      updated_at: string;
      description: string;
    };
    if (body.owner !== asset.owner) this.problem(`asset ${asset.name} has owner ${body.owner}`);
    if (body.created_at !== first.published)
      this.problem(
        `asset created_at ${body.created_at} is not its Create's time ${first.published}: ${label}`,
      );
    if (body.updated_at !== last.published)
      this.problem(
        `asset updated_at ${body.updated_at} is not its last activity's ${last.published}: ${label}`,
      );
    const signed = await request('GET', `${base}/activities/${last.idx}`, undefined, { headers: AP_ACCEPT });
    // The caption is HTML (API.md §4.1): the name in bold, then the description as its own paragraph — the
    // crash world's descriptions are plain words, so the paragraph holds them as they are.
    const content = (signed.json?.object as { content?: unknown } | undefined)?.content;
    if (
      signed.status !== 200 ||
      typeof content !== 'string' ||
      !content.includes(`<p>${body.description}</p>`)
    )
      this.problem(
        `asset description ${body.description} is not what its last activity says (${String(content)}): ${label}`,
      );
  }

  // ---------------------------------------------------------------- deliveries

  /** The deliveries the inbox hosts received since the last call. */
  private takeReceived(): ReceivedDelivery[] {
    const taken: ReceivedDelivery[] = [];
    for (const host of this.inboxHosts) {
      const from = this.receivedChecked.get(host) ?? 0;
      taken.push(...host.received.slice(from));
      this.receivedChecked.set(host, host.received.length);
    }
    return taken;
  }

  /** A delivery must be of an activity the log holds — the same one, not one rolled back at its idx — to a follower. */
  private checkReceived(delivery: ReceivedDelivery): void {
    const what = `${delivery.inbox} received ${delivery.type || '?'} ${delivery.id || '(no id)'}`;
    if (delivery.status === 503) this.stats.deliveriesRefused++;
    const prefix = `${this.publicUrl}/activities/`;
    const suffix = delivery.id.startsWith(prefix) ? delivery.id.slice(prefix.length) : '';
    const idx = /^\d+$/.test(suffix) ? Number(suffix) : NaN;
    if (!Number.isSafeInteger(idx)) {
      this.problem(`${what}: not an activity of the log`);
      return;
    }
    const item = this.log.get(idx);
    if (!item) {
      this.problem(
        `${what}, which is not in the log (${this.log.size} activities): delivered, never committed`,
      );
      return;
    }
    const expected = {
      type: item.type,
      actor: `${this.publicUrl}/users/${item.actor}`,
      object: `${this.publicUrl}/assets/${encodeURIComponent(item.object)}`,
      published: item.published,
    };
    const got = {
      type: delivery.type,
      actor: delivery.actor,
      object: delivery.object,
      published: delivery.published,
    };
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      this.problem(
        `${what} as ${JSON.stringify(got)}, but the log holds ${JSON.stringify(expected)} at idx ${idx}: ` +
          'an activity that was never committed was delivered',
      );
      return;
    }
    if (!(this.followers.get(item.actor) ?? []).includes(delivery.inbox)) {
      this.problem(`${what}: no follower of ${item.actor} has that inbox`);
      return;
    }
    if (delivery.status >= 200 && delivery.status < 300) {
      const key = `${idx} ${delivery.inbox}`;
      const times = (this.deliveredTo.get(key) ?? 0) + 1;
      this.deliveredTo.set(key, times);
      this.stats.delivered++;
      if (times > 1) this.stats.redelivered++;
    }
  }

  /**
   * Every activity of the log (as last read) by a user with followers is delivered to each of their inboxes or
   * queued for it; every delivery job is of an activity of the log, to an inbox of its actor's followers, once; and
   * every delivery received is of an activity of the log. The jobs are read after the log and before the inbox
   * hosts: a delivery is recorded before it is answered, so before its job leaves the queue.
   */
  private async checkDeliveries(): Promise<void> {
    const jobs = await this.readJobs('activity_delivery');
    for (const delivery of this.takeReceived()) this.checkReceived(delivery);
    const pending = new Set<string>();
    for (const job of jobs) {
      const { idx, inbox } = JSON.parse(job.payload) as { idx: number; inbox: string };
      const key = `${idx} ${inbox}`;
      const item = this.log.get(idx);
      if (!item) this.problem(`delivery job ${job.id} is of activity ${idx}, which is not in the log`);
      else if (!(this.followers.get(item.actor) ?? []).includes(inbox))
        this.problem(
          `delivery job ${job.id} of activity ${idx} goes to ${inbox}: no follower of ${item.actor}`,
        );
      if (job.state !== 'pending')
        this.problem(`delivery job ${job.id} (activity ${idx} to ${inbox}) is ${job.state}`);
      else if (pending.has(key)) this.problem(`delivery of activity ${idx} to ${inbox} is queued twice`);
      else pending.add(key);
    }
    let required = 0;
    for (const item of this.log.values())
      for (const inbox of this.followers.get(item.actor) ?? []) {
        required++;
        const key = `${item.idx} ${inbox}`;
        if (!this.deliveredTo.has(key) && !pending.has(key))
          this.problem(
            `activity ${item.idx} (${item.type} of ${item.object} by ${item.actor}) was neither delivered to ` +
              `${inbox} nor is it queued for it`,
          );
      }
    this.stats.deliveriesRequired = required;
  }

  /**
   * At the end, with the last process left running: waits (deadline) until no delivery is queued — a job leased by a
   * killed process waits for its lease to run out — then checks every activity reached every inbox at least once.
   */
  async drainAndCheckDeliveries(deadlineMs: number): Promise<{ waitedMs: number }> {
    const started = Date.now();
    const deadline = started + deadlineMs;
    const pending = async () =>
      (await this.readJobs('activity_delivery')).filter((job) => job.state === 'pending');
    let left = await pending();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await pending();
    }
    if (left.length > 0)
      this.problem(
        `${left.length} delivery jobs still queued ${deadlineMs} ms after the last restart ` +
          `(e.g. ${left
            .slice(0, 3)
            .map((job) => job.payload)
            .join(', ')}): the queue did not drain`,
      );
    await this.checkDeliveries();
    for (const item of this.log.values())
      for (const inbox of this.followers.get(item.actor) ?? [])
        if (!this.deliveredTo.has(`${item.idx} ${inbox}`))
          this.problem(
            `activity ${item.idx} (${item.type} of ${item.object} by ${item.actor}) never reached ${inbox}`,
          );
    return { waitedMs: Date.now() - started };
  }

  // ---------------------------------------------------------------- notices, at the end

  /** Hashes whose notice must have been delivered or still be queued. */
  private requiredNotices(): Map<string, string> {
    const required = new Map<string, string>();
    for (const hash of this.queuedAtKill) required.set(hash, 'queued when a process was killed');
    for (const token of this.tokens) {
      if (token.l1 === null || token.state !== 'revoked') continue;
      required.set(
        token.hash,
        `${token.revocationAcknowledged ? 'acknowledged' : 'observed'} revocation of a token of ${token.username} for ${token.l1}`,
      );
    }
    return required;
  }

  /**
   * Waits (deadline) until the running server has sent every notice it can — the jobs left are those still leased
   * by a killed process — then checks each required notice was delivered once at least or is still queued.
   */
  async drainAndCheckNotices(deadlineMs: number): Promise<{ delivered: number; queued: number }> {
    const required = this.requiredNotices();
    const deadline = Date.now() + deadlineMs;
    let jobs = await this.readJobs();
    const runnable = (rows: JobRow[]) =>
      rows.filter(
        (job) =>
          job.state === 'pending' &&
          !(
            job.lease_id !== null &&
            this.deadLeases.has(job.lease_id) &&
            (job.lease_until ?? 0) > Date.now()
          ),
      );
    while (runnable(jobs).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      jobs = await this.readJobs();
    }
    const left = runnable(jobs);
    if (left.length > 0)
      this.problem(
        `${left.length} notice jobs still runnable after ${deadlineMs} ms: the queue did not drain`,
      );
    for (const job of jobs) if (job.state !== 'pending') this.problem(`notice job ${job.id} is ${job.state}`);
    const queued = new Set(jobs.filter((job) => job.state === 'pending').map(CrashWorld.hashOf));
    let delivered = 0;
    for (const [hash, why] of required) {
      if (this.delivered(hash)) delivered++;
      else if (!queued.has(hash))
        this.problem(`notice ${hash.slice(0, 12)}… (${why}) was neither delivered nor is it queued`);
    }
    return { delivered, queued: required.size - delivered };
  }
}
