import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Test data written by others, kept under test/fixtures/tlog (see its README for sources and licences). */

const FIXTURES = fileURLToPath(new URL('../../../fixtures/tlog/', import.meta.url));
const MERKLE = join(FIXTURES, 'transparency-dev-merkle');

export const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
export const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

/** transparency-dev/merkle testonly/constants.go: the 8-leaf RFC 6962 test tree. */
export const testTree = JSON.parse(readFileSync(join(MERKLE, 'testonly-constants.json'), 'utf8')) as {
  leafInputs: string[];
  rootHashes: string[];
  compactTrees: string[][];
};

export interface InclusionVector {
  file: string;
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

export interface ConsistencyVector {
  file: string;
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

function vectors<T>(kind: 'inclusion' | 'consistency'): T[] {
  const root = join(MERKLE, 'testdata', kind);
  return readdirSync(root).flatMap((dir) =>
    readdirSync(join(root, dir)).map((name) => ({
      file: `${kind}/${dir}/${name}`,
      ...(JSON.parse(readFileSync(join(root, dir, name), 'utf8')) as object),
    })),
  ) as T[];
}

export const inclusionVectors = (): InclusionVector[] => vectors<InclusionVector>('inclusion');
export const consistencyVectors = (): ConsistencyVector[] => vectors<ConsistencyVector>('consistency');
