import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The kit's own files a file imports (type-only imports included), as paths relative to src/. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
  ].map((m) => m[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(SRC, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
}

/** Every cycle of the import graph, each as the files it passes through (depth-first, one per back edge). */
function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

const graph = new Map(sourceFiles(SRC).map((file) => [relative(SRC, file), localImports(file)]));

describe('l1-kit design: a small facade over collaborators that own their state', () => {
  it('has no import cycle among its source files, type-only imports included', () => {
    expect(graph.get('kit.ts')).to.not.deep.equal([]); // the walk finds imports at all
    expect(importCycles(graph).map((cycle) => cycle.join(' → '))).to.deep.equal([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(importCycles(cyclic).map((cycle) => cycle.join(' → '))).to.deep.equal([
      'a.ts → b.ts → c.ts → a.ts',
    ]);
  });

  it('has no @internal members: collaborators get what they need through their constructors', () => {
    const internal = sourceFiles(SRC).filter((file) => readFileSync(file, 'utf8').includes('@internal'));
    expect(internal.map((file) => relative(SRC, file))).to.deep.equal([]);
  });

  it('exposes on the published class exactly the API its README documents', async () => {
    const { L1Kit, createL1Kit } = await import('../src/index.js');
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const block = /^class L1Kit \{\n([\s\S]*?)\n\}/m.exec(readme)?.[1] ?? '';
    const documented = [...block.matchAll(/(?:^|;)\s*(?:readonly\s+)?(\w+)\s*(?:<[^>]*>)?\s*[(:]/gm)].map(
      (m) => m[1]!,
    );
    // Read-only fields the typings show besides: the settings the adapters read.
    const fields = ['realm', 'timeoutMs', 'paths'];
    const kit = createL1Kit({ l2: 'https://l2.example', self: 'https://l1.example' });
    const members = [
      ...Object.keys(kit),
      ...Object.getOwnPropertyNames(L1Kit.prototype).filter((name) => name !== 'constructor'),
    ];
    expect(documented).to.include.members([
      'verify',
      'purge',
      'noticeReceiver',
      'routes',
      'positiveCacheActive',
    ]);
    expect([...members].sort()).to.deep.equal([...documented, ...fields].sort());
  });
});
