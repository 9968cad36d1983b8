import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatVerifierKey } from '@l2/tlog';
import { ed25519KeyPairFromPkcs8Pem, generateEd25519Pkcs8Pem, nodeSha256 } from '@l2/tlog/node-crypto';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const TLOG = fileURLToPath(new URL('../../tlog/', import.meta.url));
type Manifest = {
  name: string;
  version: string;
  type: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  exports: Record<string, { types: string; import: string } | string>;
};
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as Manifest;
const tlogManifest = JSON.parse(readFileSync(join(TLOG, 'package.json'), 'utf8')) as Manifest;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The real build (a clean dist/, then tsc -p tsconfig.build.json), as `npm pack` / `npm publish` run it. */
function build(dir: string): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json')], { stdio: 'pipe' });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('l1-kit as a published package', function () {
  before(() => {
    // The kit is built against @l2/tlog's built declarations, as it is published.
    build(TLOG);
    build(PACKAGE);
  });

  it('is ESM for Node >= 20 with jose and @l2/tlog (L2’s log verifier) as its runtime dependencies', () => {
    expect(manifest.type).to.equal('module');
    expect(manifest.engines.node).to.equal('>=20');
    expect(Object.keys(manifest.dependencies).sort()).to.deep.equal(['@l2/tlog', 'jose']);
    expect(manifest.dependencies['@l2/tlog']).to.equal(`^${tlogManifest.version}`);
  });

  it('builds every entry of its exports map, each with its declarations', () => {
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(existsSync(join(PACKAGE, target.import)), `${entry} → ${target.import}`).to.be.true;
      expect(existsSync(join(PACKAGE, target.types)), `${entry} → ${target.types}`).to.be.true;
    }
    const declarations = readFileSync(join(PACKAGE, 'dist/kit.d.ts'), 'utf8');
    expect(declarations).to.contain('verify(token: string): Promise<L2User>;');
    expect(declarations).to.not.contain('claimNotice'); // nothing internal in the public types
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

  it("takes L2's log verifier from @l2/tlog by name: none of it is built into dist/", () => {
    expect(existsSync(join(PACKAGE, 'dist/log-core'))).to.be.false;
    const watch = readFileSync(join(PACKAGE, 'dist/log-watch.js'), 'utf8');
    expect([...watch.matchAll(/from '([^']+)'/g)].map((m) => m[1])).to.deep.equal([
      'node:events',
      '@l2/tlog/client',
      '@l2/tlog/node-crypto',
    ]);
  });

  it('packs dist/, the README and the manifest, and nothing else', () => {
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

  it('installs from its tarball with @l2/tlog’s, and runs under plain Node: core, adapter, and watchLog', async function () {
    this.timeout(180_000);
    const dir = mkdtempSync(join(tmpdir(), 'l1-kit-consumer-'));
    try {
      const packed = [TLOG, PACKAGE].map((from) => {
        const [pack] = JSON.parse(
          execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
            cwd: from,
            stdio: 'pipe',
          }).toString(),
        ) as [{ filename: string }];
        return `./${pack.filename}`;
      });
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      );
      execFileSync(
        npm,
        ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...packed],
        {
          cwd: dir,
          stdio: 'pipe',
        },
      );
      const key = ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem());
      const nowhere = `http://127.0.0.1:${await closedPort()}`;
      writeFileSync(
        join(dir, 'consumer.js'),
        `import { createL1Kit, watchLog } from '@l2/l1-kit';
import { protect } from '@l2/l1-kit/express';
const [l2, verifierKey] = process.argv.slice(2);
const kit = createL1Kit({ l2, self: 'https://l1.example' });
const refusal = await kit.verify('not a token').catch((error) => error.code);
const watch = watchLog({ l2, verifierKey, intervalMs: 60_000 });
const check = await watch.checkNow();
await watch.stop();
let badKey;
try { watchLog({ l2, verifierKey: 'nonsense' }); } catch (error) { badKey = error.name; }
console.log(JSON.stringify({ protect: typeof protect, refusal, check: check.kind, badKey }));
`,
      );
      const origin = `${nowhere.replace(/^http:\/\//, '')}/tlog`;
      const out = execFileSync(
        process.execPath,
        ['consumer.js', nowhere, formatVerifierKey(nodeSha256, origin, key.publicKey)],
        { cwd: dir, stdio: 'pipe', env: { PATH: process.env.PATH } },
      ).toString();
      expect(JSON.parse(out)).to.deep.equal({
        protect: 'function',
        refusal: 'token_invalid',
        check: 'unreachable',
        badKey: 'TypeError',
      });
      const installed = (name: string) =>
        (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as Manifest)
          .version;
      expect(installed('@l2/tlog')).to.equal(tlogManifest.version);
      expect(existsSync(join(dir, 'node_modules/@l2/tlog/src'))).to.be.false; // the built package, not the sources
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
