import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  name: string;
  type: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  exports: Record<string, { types: string; import: string } | string>;
};

describe('l1-kit as a published package', function () {
  before(() => {
    // The real build (tsc -p tsconfig.build.json → dist/), as `npm pack` / `npm publish` run it.
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', join(PACKAGE, 'tsconfig.build.json')], { stdio: 'pipe' });
  });

  it('is ESM for Node >= 20 with jose as its one runtime dependency', () => {
    expect(manifest.type).to.equal('module');
    expect(manifest.engines.node).to.equal('>=20');
    expect(Object.keys(manifest.dependencies)).to.deep.equal(['jose']);
  });

  it('builds every entry of its exports map, each with its declarations', () => {
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(existsSync(join(PACKAGE, target.import)), `${entry} → ${target.import}`).to.be.true;
      expect(existsSync(join(PACKAGE, target.types)), `${entry} → ${target.types}`).to.be.true;
    }
    const declarations = readFileSync(join(PACKAGE, 'dist/kit.d.ts'), 'utf8');
    expect(declarations).to.contain('verify(token: string): Promise<L2User>;');
    expect(declarations).to.not.contain('claimNotice'); // @internal stays out of the public types
  });

  it('resolves by its name, core and adapters, from the built files', async () => {
    const core = (await import(manifest.name)) as Record<string, unknown>;
    expect(core.createL1Kit).to.be.a('function');
    expect(core.TokenError).to.be.a('function');
    expect(core.watchLog).to.be.a('function');
    for (const adapter of ['express', 'koa', 'node']) {
      const module = (await import(`${manifest.name}/${adapter}`)) as Record<string, unknown>;
      expect(module.protect, adapter).to.be.a('function');
      expect(module.routes, adapter).to.be.a('function');
    }
  });

  it("builds L2's log verifier into dist/ from L2's own files (src/log-core links to them), imported by nothing else", () => {
    for (const file of [
      'log-core/domain/transparency/log-verifier.js',
      'log-core/adapters/tlog-client/log-monitor.js',
      'log-core/adapters/crypto/node-transparency-crypto.js',
    ])
      expect(existsSync(join(PACKAGE, 'dist', file)), file).to.be.true;
    const monitor = readFileSync(join(PACKAGE, 'dist/log-core/adapters/tlog-client/log-monitor.js'), 'utf8');
    expect([...monitor.matchAll(/from '([^']+)'/g)].map((m) => m[1])).to.deep.equal([
      '../../domain/transparency/index.js',
      './http-log-fetch.js',
    ]);
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
    expect(paths).to.include.members(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']);
    expect(
      paths.filter((p) => !p.startsWith('dist/') && p !== 'package.json' && p !== 'README.md'),
    ).to.deep.equal([]);
    expect(paths.filter((p) => p.endsWith('.map') || p.includes('test'))).to.deep.equal([]);
  });
});
