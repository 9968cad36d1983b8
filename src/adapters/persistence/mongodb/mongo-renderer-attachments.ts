import type {
  RendererAttachment,
  RendererAttachments,
} from '../../../application/ports/renderer-attachments.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import type { MongoCollections } from './mongo-schema.js';

/** One document per user and L1 server, kept unique by the index on both. */
export class MongoRendererAttachments implements RendererAttachments {
  constructor(private readonly collections: MongoCollections) {}

  async attach(username: Username, l1Server: L1ServerUrl, at: Date): Promise<void> {
    // An upsert on the unique key: the server retries one that loses a race to a concurrent insert of that key.
    await storeCall(() =>
      this.collections.attachments.updateOne(
        { username, l1Server },
        { $set: { attachedAt: at } },
        { upsert: true },
      ),
    );
  }

  async list(username: Username): Promise<RendererAttachment[]> {
    const docs = await storeCall(() =>
      this.collections.attachments.find({ username }).sort({ attachedAt: -1, l1Server: 1 }).toArray(),
    );
    return docs.map((doc) => ({ l1Server: doc.l1Server as L1ServerUrl, attachedAt: doc.attachedAt }));
  }

  async remove(username: Username, l1Server: L1ServerUrl): Promise<boolean> {
    const result = await storeCall(() => this.collections.attachments.deleteOne({ username, l1Server }));
    return result.deletedCount > 0;
  }
}
