import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  name: string;
  type: string;
  engines: { node: string };
  dependencies?: Record<string, string>;
  exports: Record<string, { types: string; import: string } | string>;
};

describe('@l2/tlog as a published package', function () {
  before(() => {
    // The real build (a clean dist/, then tsc -p tsconfig.build.json), as `npm pack` / `npm publish` run it.
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    rmSync(join(PACKAGE, 'dist'), { recursive: true, force: true });
    execFileSync(process.execPath, [tsc, '-p', join(PACKAGE, 'tsconfig.build.json')], { stdio: 'pipe' });
  });

  it('is ESM for Node >= 20 and depends on nothing', () => {
    expect(manifest.type).to.equal('module');
    expect(manifest.engines.node).to.equal('>=20');
    expect(manifest.dependencies ?? {}).to.deep.equal({});
  });

  it('builds every entry of its exports map, each with its declarations: the domain, the client, the crypto', () => {
    expect(Object.keys(manifest.exports)).to.deep.equal(['.', './client', './node-crypto', './package.json']);
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(existsSync(join(PACKAGE, target.import)), `${entry} → ${target.import}`).to.be.true;
      expect(existsSync(join(PACKAGE, target.types)), `${entry} → ${target.types}`).to.be.true;
    }
  });

  it('builds a domain that imports nothing but its own files (what lets L2’s domain use it)', () => {
    const domain = join(PACKAGE, 'dist/domain');
    const specifiers = readdirSync(domain)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) =>
        [...readFileSync(join(domain, name), 'utf8').matchAll(/(?:from|import)\s*'([^']+)'/g)].map(
          (m) => m[1]!,
        ),
      );
    expect(specifiers.length).to.be.greaterThan(20);
    expect(specifiers.filter((s) => !/^\.\/[a-z-]+\.js$/.test(s))).to.deep.equal([]);
  });

  it('runs from the built files: each entry loads under Node and exports what it says', async () => {
    const built = async (entry: string) => {
      const target = manifest.exports[entry] as { import: string };
      return (await import(pathToFileURL(join(PACKAGE, target.import)).href)) as Record<string, unknown>;
    };
    expect((await built('.')).verifyLog).to.be.a('function');
    expect((await built('./client')).monitorLog).to.be.a('function');
    expect((await built('./node-crypto')).verifyEd25519).to.be.a('function');
  });

  it('packs dist/, the README and the manifest, and nothing else', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const [pack] = JSON.parse(
      execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: PACKAGE,
        stdio: 'pipe',
      }).toString(),
    ) as [{ files: { path: string }[] }];
    const paths = pack.files.map((f) => f.path);
    expect(paths).to.include.members([
      'package.json',
      'README.md',
      'dist/domain/index.js',
      'dist/domain/index.d.ts',
    ]);
    expect(
      paths.filter((p) => !p.startsWith('dist/') && p !== 'package.json' && p !== 'README.md'),
    ).to.deep.equal([]);
    expect(paths.filter((p) => p.endsWith('.map') || p.includes('test'))).to.deep.equal([]);
  });
});
