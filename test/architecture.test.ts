import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(
    (m) => m[1]!,
  );

/** Every import in a layer, as "file → specifier", with relative specifiers resolved against `root` (src/). */
function imports(layer: string, root = SRC) {
  return sourceFiles(join(root, layer)).flatMap((file) =>
    importsOf(file).map((specifier) => ({
      file: relative(root, file),
      specifier,
      target: specifier.startsWith('.') ? relative(root, join(file, '..', specifier)) : specifier,
    })),
  );
}

/**
 * The transparency log's pure domain: the entry point of the workspace package @l2/tlog (packages/tlog/src/domain,
 * ADR 15). For the dependency rule it is part of the domain — held below to the same rule, in its own package so
 * that the L1 kit ships it — and the only thing outside src/domain that the domain and the application may import.
 * Its adapters (`@l2/tlog/client`, `@l2/tlog/node-crypto`) are adapters.
 */
const LOG_DOMAIN = '@l2/tlog';
const TLOG = fileURLToPath(new URL('../packages/tlog/', import.meta.url));
const TLOG_SRC = join(TLOG, 'src');

describe('architecture: the dependency rule', () => {
  it("keeps the domain free of anything outside itself (zod and the log's pure domain at most)", () => {
    const offending = imports('domain').filter(
      (i) => !i.target.startsWith('domain/') && i.target !== 'zod' && i.target !== LOG_DOMAIN,
    );
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
  });

  it("keeps the log's domain (packages/tlog/src/domain, the package's entry point) pure: its files import only each other", () => {
    const all = imports('domain', TLOG_SRC);
    const offending = all.filter((i) => !i.specifier.startsWith('.') || !i.target.startsWith('domain/'));
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
    expect(all).to.not.deep.equal([]);
  });

  it("keeps the log's adapters (@l2/tlog/client, @l2/tlog/node-crypto) to the log's domain and Node's built-ins", () => {
    const all = imports('adapters', TLOG_SRC);
    const offending = all.filter((i) => {
      if (i.target.startsWith('node:')) return false;
      if (!i.specifier.startsWith('.')) return true;
      const own = i.file.split('/').slice(0, 2).join('/');
      return !i.target.startsWith('domain/') && !i.target.startsWith(`${own}/`);
    });
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
    expect(all.some((i) => i.target.startsWith('domain/'))).to.equal(true);
  });

  it("resolves @l2/tlog, wherever it is resolved (published exports, TypeScript paths), to the log's domain and nothing else", () => {
    const manifest = JSON.parse(readFileSync(join(TLOG, 'package.json'), 'utf8')) as {
      exports: Record<string, { import: string } | string>;
    };
    const tsconfig = readFileSync(fileURLToPath(new URL('../tsconfig.json', import.meta.url)), 'utf8');
    const paths = JSON.parse(tsconfig.replace(/^\s*\/\/.*$/gm, '')) as {
      compilerOptions: { paths: Record<string, [string]> };
    };
    const built = Object.fromEntries(
      Object.entries(manifest.exports)
        .filter((entry): entry is [string, { import: string }] => typeof entry[1] !== 'string')
        .map(([entry, target]) => [entry.replace(/^\./, LOG_DOMAIN), target.import]),
    );
    const sources = Object.fromEntries(
      Object.entries(paths.compilerOptions.paths).map(([name, [target]]) => [
        name,
        target.replace('./packages/tlog/src/', './dist/').replace(/\.ts$/, '.js'),
      ]),
    );
    expect(sources, "tsconfig.json paths mirror the package's exports").to.deep.equal(built);
    expect(built[LOG_DOMAIN]).to.equal('./dist/domain/index.js');
  });

  it("lets the application import only the domain (the log's included) and itself", () => {
    const offending = imports('application').filter(
      (i) =>
        !i.target.startsWith('domain/') && !i.target.startsWith('application/') && i.target !== LOG_DOMAIN,
    );
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
  });

  it('keeps adapters apart from each other (the HTTP adapter may use the views) and from composition', () => {
    const offending = imports('adapters').filter((i) => {
      if (!i.target.startsWith('adapters/') && !i.target.startsWith('composition/')) return false;
      if (i.target.startsWith('composition/')) return true;
      const own = i.file.split('/').slice(0, 2).join('/');
      const theirs = i.target.split('/').slice(0, 2).join('/');
      return own !== theirs && !(own === 'adapters/http' && theirs === 'adapters/views');
    });
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
  });

  it("keeps the HTTP front ends apart: the hot paths import nothing of Koa's, and what both use is in shared/", () => {
    const http = imports('adapters/http');
    const offending = http.filter(
      (i) =>
        (i.file.startsWith('adapters/http/hot-paths/') &&
          (i.target.startsWith('adapters/http/koa/') ||
            i.target === 'koa' ||
            i.target.startsWith('@koa/'))) ||
        (i.file.startsWith('adapters/http/shared/') &&
          (i.target.startsWith('adapters/http/koa/') ||
            i.target.startsWith('adapters/http/hot-paths/') ||
            i.target === 'koa' ||
            i.target.startsWith('@koa/'))),
    );
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
    expect(http.some((i) => i.file.startsWith('adapters/http/hot-paths/'))).to.equal(true);
    expect(http.some((i) => i.file.startsWith('adapters/http/shared/'))).to.equal(true);
  });

  it('builds adapters only in the composition root (and in the adapters that compose them)', () => {
    const adapterClasses = sourceFiles(join(SRC, 'adapters')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^export class (\w+)/gm)].map((m) => m[1]!),
    );
    const built = sourceFiles(SRC)
      .filter((file) => !/^(adapters|composition)\//.test(relative(SRC, file)))
      .flatMap((file) =>
        adapterClasses
          .filter((name) => readFileSync(file, 'utf8').includes(`new ${name}(`))
          .map((name) => `${relative(SRC, file)} → new ${name}`),
      );
    expect(adapterClasses.length).to.be.greaterThan(20);
    expect(built).to.deep.equal([]);
  });

  it('keeps every file of src/ and packages/*/src within 320 lines', () => {
    const packages = fileURLToPath(new URL('../packages/', import.meta.url));
    const files = [
      ...sourceFiles(SRC),
      ...readdirSync(packages).flatMap((name) =>
        existsSync(join(packages, name, 'src')) ? sourceFiles(join(packages, name, 'src')) : [],
      ),
    ];
    const long = files
      .map((file) => ({
        file: relative(join(SRC, '..'), file),
        lines: readFileSync(file, 'utf8').trimEnd().split('\n').length,
      }))
      .filter((f) => f.lines > 320);
    expect(files.length).to.be.greaterThan(300);
    expect(long.map((f) => `${f.file}: ${f.lines} lines`)).to.deep.equal([]);
  });

  it('finds the imports it checks (the check itself works)', () => {
    expect(imports('application').some((i) => i.target.startsWith('domain/'))).to.equal(true);
    expect(imports('adapters').some((i) => i.specifier === 'koa')).to.equal(true);
    expect(imports('application').some((i) => i.target === LOG_DOMAIN)).to.equal(true);
  });
});

describe('test tiers', () => {
  const ROOT = fileURLToPath(new URL('../', import.meta.url));
  const tiers = JSON.parse(readFileSync(join(ROOT, 'test/tiers.json'), 'utf8')) as Record<
    string,
    { paths: string[] }
  >;
  /** Every tier whose paths hold `file` with the longest path among them (the most specific one claims it). */
  const claims = (file: string): string[] => {
    const holding = Object.entries(tiers).flatMap(([tier, { paths }]) =>
      paths.filter((p) => file === p || file.startsWith(`${p}/`)).map((p) => ({ tier, length: p.length })),
    );
    const longest = Math.max(...holding.map((h) => h.length));
    return holding.filter((h) => h.length === longest).map((h) => h.tier);
  };
  const testFiles = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? entry.name === 'node_modules'
          ? []
          : testFiles(`${dir}/${entry.name}`)
        : entry.name.endsWith('.test.ts')
          ? [`${dir}/${entry.name}`]
          : [],
    );

  it('puts every test file in exactly one tier, so that npm test runs each once', () => {
    const files = [
      ...testFiles('test'),
      ...readdirSync(join(ROOT, 'packages'))
        .filter((name) => existsSync(join(ROOT, 'packages', name, 'test')))
        .flatMap((name) => testFiles(`packages/${name}/test`)),
    ];
    expect(files.length).to.be.greaterThan(150);
    const misplaced = files.filter((file) => claims(file).length !== 1);
    expect(misplaced, 'files in no tier, or in two').to.deep.equal([]);
    expect(claims('test/composition/config.test.ts')).to.deep.equal(['unit']);
    expect(claims('test/composition/cli.test.ts')).to.deep.equal(['slow']);
  });
});
