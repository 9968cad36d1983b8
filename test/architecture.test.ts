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

/** Every import in a layer, as "file → specifier", with relative specifiers resolved against src/. */
function imports(layer: string) {
  return sourceFiles(join(SRC, layer)).flatMap((file) =>
    importsOf(file).map((specifier) => ({
      file: relative(SRC, file),
      specifier,
      target: specifier.startsWith('.') ? relative(SRC, join(file, '..', specifier)) : specifier,
    })),
  );
}

describe('architecture: the dependency rule', () => {
  it('keeps the domain free of anything outside itself (zod at most)', () => {
    const offending = imports('domain').filter((i) => !i.target.startsWith('domain/') && i.target !== 'zod');
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
  });

  it('keeps src/domain/transparency self-contained (its files import only each other), so the L1 kit can compile them', () => {
    const offending = imports('domain/transparency').filter(
      (i) => !i.target.startsWith('domain/transparency/'),
    );
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
    expect(imports('domain/transparency')).to.not.deep.equal([]);
  });

  it("keeps the log monitor (src/adapters/tlog-client) and the log crypto to the log core and Node's built-ins, so the L1 kit can compile them", () => {
    const offending = [
      ...imports('adapters/tlog-client').filter(
        (i) =>
          !i.target.startsWith('domain/transparency/') &&
          !i.target.startsWith('adapters/tlog-client/') &&
          !i.target.startsWith('node:'),
      ),
      ...imports('adapters/crypto').filter(
        (i) =>
          i.file === 'adapters/crypto/node-transparency-crypto.ts' &&
          !i.target.startsWith('domain/transparency/') &&
          i.target !== 'node:crypto',
      ),
    ];
    expect(offending.map((i) => `${i.file} → ${i.specifier}`)).to.deep.equal([]);
    expect(imports('adapters/tlog-client')).to.not.deep.equal([]);
  });

  it('lets the application import only the domain and itself', () => {
    const offending = imports('application').filter(
      (i) => !i.target.startsWith('domain/') && !i.target.startsWith('application/'),
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

  it('keeps every file of packages/*/src within 320 lines', () => {
    const packages = fileURLToPath(new URL('../packages/', import.meta.url));
    const files = readdirSync(packages).flatMap((name) =>
      existsSync(join(packages, name, 'src')) ? sourceFiles(join(packages, name, 'src')) : [],
    );
    const long = files
      .map((file) => ({
        file: relative(packages, file),
        lines: readFileSync(file, 'utf8').trimEnd().split('\n').length,
      }))
      .filter((f) => f.lines > 320);
    expect(files.length).to.be.greaterThan(10);
    expect(long.map((f) => `${f.file}: ${f.lines} lines`)).to.deep.equal([]);
  });

  it('finds the imports it checks (the check itself works)', () => {
    expect(imports('application').some((i) => i.target.startsWith('domain/'))).to.equal(true);
    expect(imports('adapters').some((i) => i.specifier === 'koa')).to.equal(true);
  });
});
