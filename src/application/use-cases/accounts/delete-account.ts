// Rule: a person leaves by giving their password (the attempt counts towards the login limits). In one write the
// account is marked deleted, every token of theirs is revoked (the L1 servers are told), and every live asset of
// theirs is deleted with its signed Delete in the log; then their followers are sent the Delete of the actor. The
// name stays taken, and the account appears in no list or count.
import type { Asset } from '../../../domain/asset.js';
import { AS_CONTEXT, PUBLIC_AUDIENCE, type Urls } from '../../../domain/activity-streams.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { User } from '../../../domain/user.js';
import type { AccountRemoval } from '../../ports/account-removal.js';
import type { ActivityLog } from '../../ports/activity-log.js';
import type { ActivitySigner } from '../../ports/activity-signer.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { LogCoverage } from '../../ports/log-coverage.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { PasswordCheck, PasswordCheckError } from '../../services/password-check.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';
import { signedActivity } from '../../services/publish-activity.js';

const MAX_ATTEMPTS = 20;
const PAGE = 100;

export type DeleteAccountError = PasswordCheckError | { readonly type: 'forbidden' };

export class DeleteAccount {
  constructor(
    private readonly passwords: PasswordCheck,
    private readonly assets: AssetRepository,
    private readonly log: ActivityLog,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly removal: AccountRemoval,
    private readonly writer: RevocationWriter,
    private readonly signer: ActivitySigner,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly urls: Urls,
    /** The Deletes are answered once a signed checkpoint covers them, as every write. */
    private readonly coverage: LogCoverage,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    password: string;
    clientAddress: string;
  }): Promise<Result<{ revoked: number; assets: number }, DeleteAccountError>> {
    if (isScoped(input.session.claims)) return err({ type: 'forbidden' });
    const checked = await this.passwords.check({
      username: input.session.claims.username,
      password: input.password,
      clientAddress: input.clientAddress,
    });
    if (!checked.ok) return checked;
    const user = checked.value;
    this.coverage.refuseUnlessConsistent();

    // The Deletes carry consecutive idx from the log's next one, and must name exactly the live assets: another
    // writer getting there first makes the plan be built (and signed) again.
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const [assets, tokens, firstIdx] = await Promise.all([
        this.liveAssetsOf(user),
        this.issuedTokens.listActiveByUser(user.username, now).then((all) => this.writer.unrevoked(all)),
        this.log.nextIdx(),
      ]);
      const assetDeletes = await Promise.all(
        assets.map(async (asset, i) => ({
          name: asset.name,
          activity: await signedActivity(
            { idx: firstIdx + i, type: 'Delete', asset, published: now, publisher: user },
            this.signer,
            this.urls,
          ),
        })),
      );
      const outcome = await this.removal.remove(
        {
          username: user.username,
          revocations: this.writer.revocationsOf(tokens),
          assetDeletes,
          actorDelete: this.actorDelete(user),
        },
        now,
      );
      if (outcome === 'removed') {
        this.signal.jobsQueued();
        if (assetDeletes.length > 0) await this.coverage.cover(firstIdx + assetDeletes.length);
        // A login that checked the password just before the removal may have issued a token since the list.
        const late = await this.writer.revoke(await this.issuedTokens.listActiveByUser(user.username, now));
        return ok({ revoked: tokens.length + late, assets: assets.length });
      }
      if (outcome === 'gone') return err({ type: 'invalid_credentials' });
    }
    throw new Error(`the account ${user.username} kept changing under ${MAX_ATTEMPTS} attempts to delete it`);
  }

  private async liveAssetsOf(user: User): Promise<Asset[]> {
    const all: Asset[] = [];
    for (let before: number | null = null; ;) {
      const page = await this.assets.listOlder({ owner: user.username }, before, PAGE);
      all.push(...page.map((entry) => entry.value));
      if (page.length < PAGE) return all;
      before = page[page.length - 1]!.position;
    }
  }

  /** The Delete of the actor that followers' servers receive (Mastodon then removes the account). */
  private actorDelete(user: User): Record<string, unknown> {
    const actor = this.urls.actor(user.username);
    return {
      '@context': AS_CONTEXT,
      id: `${actor}#delete`,
      type: 'Delete',
      actor,
      object: actor,
      to: [PUBLIC_AUDIENCE],
    };
  }
}
