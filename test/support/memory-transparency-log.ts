import { nodeSha256 } from '@l2/tlog/node-crypto';
import {
  appendToRightEdge,
  EMPTY_RIGHT_EDGE,
  encodeEntryBundle,
  formatVerifierKey,
  isWithinTree,
  leafHash,
  noteSigner,
  parseTilePath,
  readTile,
  rootOfRightEdge,
  signCheckpoint,
  type Ed25519KeyPair,
  type RightEdge,
  type StoredHashIndex,
  type StoredHashReader,
} from '@l2/tlog';

/**
 * A transparency log as a store would keep it (entries, the kept tile-level hashes, the right
 * edge), in memory, serving the tlog-tiles resources of its latest signed checkpoint. Tests use it
 * as the server side for clients: the TypeScript verifier and the Go check.
 */
export class MemoryTransparencyLog {
  readonly entries: Uint8Array[] = [];
  private readonly kept = new Map<string, Uint8Array>();
  private edge: RightEdge = EMPTY_RIGHT_EDGE;
  private signed: { size: number; note: string } | null = null;

  constructor(
    readonly origin: string,
    private readonly key: Ed25519KeyPair,
  ) {}

  get size(): number {
    return this.edge.size;
  }

  get verifierKey(): string {
    return formatVerifierKey(nodeSha256, this.origin, this.key.publicKey);
  }

  append(...entries: Uint8Array[]): this {
    for (const entry of entries) {
      const { edge, completed } = appendToRightEdge(nodeSha256, this.edge, leafHash(nodeSha256, entry));
      for (const { level, index, hash } of completed) this.kept.set(`${level}/${index}`, hash);
      this.entries.push(entry);
      this.edge = edge;
    }
    return this;
  }

  readonly reader: StoredHashReader = {
    readHashes: (indexes: readonly StoredHashIndex[]) =>
      indexes.map(({ level, index }) => {
        const hash = this.kept.get(`${level}/${index}`);
        if (!hash) throw new Error(`no kept hash ${level}/${index}`);
        return hash;
      }),
  };

  root(): Uint8Array {
    return rootOfRightEdge(nodeSha256, this.edge);
  }

  /** Signs a checkpoint of the current size; from now on it is the one served. */
  sign(): string {
    const signer = noteSigner(nodeSha256, this.origin, this.key);
    const note = signCheckpoint(
      { origin: this.origin, size: this.size, rootHash: this.root(), extensions: [] },
      signer,
    );
    this.signed = { size: this.size, note };
    return note;
  }

  /** GET <prefix>/<path>, as the log serves it; null for 404. */
  async fetch(path: string): Promise<Uint8Array | null> {
    if (this.signed === null) return null;
    if (path === 'checkpoint') return new TextEncoder().encode(this.signed.note);
    const resource = parseTilePath(path);
    if (resource === null || !isWithinTree(resource, this.signed.size)) return null;
    if (resource.kind === 'entries') {
      const first = resource.index * 256;
      return encodeEntryBundle(this.entries.slice(first, first + resource.width));
    }
    return readTile(this.reader, resource);
  }
}
