/** Told what the transparency log does (for metrics); must not throw or block. */
export interface TransparencyObserver {
  /** The entries of the store were checked against the hashes and the checkpoint, at start-up. */
  checked(size: number, seconds: number): void;
  /** A checkpoint of `size` entries was signed (and kept, unless another instance kept a larger one first). */
  signed(size: number): void;
  /** The stored log no longer matches what was signed: nothing is signed from now on. */
  inconsistent(): void;
}

export const IGNORE_TRANSPARENCY: TransparencyObserver = {
  checked: () => {},
  signed: () => {},
  inconsistent: () => {},
};
