import type {
  RendererAttachment,
  RendererAttachments,
} from '../../../application/ports/renderer-attachments.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Revocation } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import type { MongoClient } from 'mongodb';
import { storeCall } from './mongo-errors.js';
import { ATTACHMENT_DOCUMENTS } from './codecs/token-documents.js';
import type { MongoCollections } from './mongo-schema.js';
import { revokeIn } from './mongo-revocation-store.js';
import { transaction } from './mongo-transactions.js';

/** One document per user and L1 server, kept unique by the index on both. */
export class MongoRendererAttachments implements RendererAttachments {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async attach(username: Username, l1Server: L1ServerUrl, at: Date, limit: number): Promise<boolean> {
    const { attachments, users } = this.collections;
    return storeCall(() =>
      transaction<boolean>(this.client, async (session, refuse) => {
        const known = await attachments.countDocuments({ username, l1Server }, { session, limit: 1 });
        if (known === 0 && (await attachments.countDocuments({ username }, { session })) >= limit) {
          return refuse(false);
        }
        // Snapshot isolation lets two transactions that insert different documents both commit: writing the
        // user's own document makes concurrent attaches of one user conflict, and withTransaction retries the
        // loser, which then counts the winner's attachment.
        await users.updateOne({ _id: username }, { $inc: { attachmentWrites: 1 } }, { session });
        await attachments.replaceOne(
          { username, l1Server },
          ATTACHMENT_DOCUMENTS.toDocument({ username, l1Server, attachedAt: at }),
          { session, upsert: true },
        );
        return true;
      }),
    );
  }

  async list(username: Username): Promise<RendererAttachment[]> {
    const docs = await storeCall(() =>
      this.collections.attachments.find({ username }).sort({ attachedAt: -1, l1Server: 1 }).toArray(),
    );
    return docs.map((doc) => {
      const { l1Server, attachedAt } = ATTACHMENT_DOCUMENTS.fromDocument(doc);
      return { l1Server, attachedAt };
    });
  }

  async detach(
    username: Username,
    l1Server: L1ServerUrl,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<{ removed: boolean; revoked: number }> {
    return storeCall(() =>
      transaction(this.client, async (session) => {
        const { deletedCount } = await this.collections.attachments.deleteOne(
          { username, l1Server },
          { session },
        );
        return {
          removed: deletedCount > 0,
          revoked: await revokeIn(this.collections, revocations, now, session),
        };
      }),
    );
  }
}
