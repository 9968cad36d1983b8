// The shape of a use-case, read from the source with the TypeScript compiler (not regexes): each class under
// src/application/use-cases is one rule an edge calls, through its one public method, `execute()`.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { useCaseKit } from './support/use-case-kit.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const USE_CASES = join(SRC, 'application/use-cases');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** What a caller outside the class can call on an instance: methods and accessors neither private nor protected. */
function isPublicCallable(member: ts.ClassElement): boolean {
  const callable =
    ts.isMethodDeclaration(member) ||
    ts.isGetAccessorDeclaration(member) ||
    ts.isSetAccessorDeclaration(member) ||
    (ts.isPropertyDeclaration(member) &&
      member.initializer !== undefined &&
      (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer)));
  if (!callable || hasModifier(member, ts.SyntaxKind.StaticKeyword)) return false;
  if (member.name && ts.isPrivateIdentifier(member.name)) return false;
  return (
    !hasModifier(member, ts.SyntaxKind.PrivateKeyword) && !hasModifier(member, ts.SyntaxKind.ProtectedKeyword)
  );
}

/** Every class in `source`, with the names of its public methods. */
export function publicMethodsOfClasses(
  fileName: string,
  source: string,
): { name: string; methods: string[] }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const classes: { name: string; methods: string[] }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      classes.push({
        name: node.name?.text ?? '(anonymous)',
        methods: node.members.filter(isPublicCallable).map((m) => m.name?.getText(file) ?? '(unnamed)'),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return classes;
}

const useCaseClasses = () =>
  sourceFiles(USE_CASES).flatMap((path) =>
    publicMethodsOfClasses(path, readFileSync(path, 'utf8')).map((c) => ({
      ...c,
      file: relative(SRC, path),
    })),
  );

describe('architecture: a use-case is one rule with one public execute()', () => {
  it('finds what a caller could call besides execute() (the check itself)', () => {
    const source = `
      export class Two {
        constructor(private readonly a: number, public readonly b: number) {}
        async execute(): Promise<void> {}
        options(): number { return 1; }
        get key(): string { return ''; }
        peek = () => 1;
        private helper(): void {}
        protected inner(): void {}
        #hidden(): void {}
        static make(): Two { return new Two(1, 2); }
      }`;
    expect(publicMethodsOfClasses('two.ts', source)).to.deep.equal([
      { name: 'Two', methods: ['execute', 'options', 'key', 'peek'] },
    ]);
  });

  it('gives every use-case class exactly one public method, execute()', () => {
    const classes = useCaseClasses();
    const offending = classes
      .filter((c) => c.methods.length !== 1 || c.methods[0] !== 'execute')
      .map((c) => `${c.file}: ${c.name} has ${c.methods.join(', ') || 'no public method'}`);
    expect(offending).to.deep.equal([]);
    expect(classes.length).to.be.above(50);
  });

  it('registers every class under use-cases/ as a use-case, and nothing else: a service lives in services/', () => {
    // By name (the test runner may hold a second copy of a module): names are unique, so a name is one class.
    const classes = useCaseClasses();
    const names = classes.map((c) => c.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).to.deep.equal([]);
    const registered = Object.entries(useCaseKit().l2.useCases).map(
      ([name, useCase]) => [name, (useCase as object).constructor.name] as const,
    );
    const made = new Set(registered.map(([, made]) => made));
    const unregistered = classes.filter((c) => !made.has(c.name)).map((c) => `${c.file}: ${c.name}`);
    const elsewhere = registered
      .filter(([, made]) => !names.includes(made))
      .map(([name, made]) => `${name}: ${made}`);
    expect({ unregistered, elsewhere }).to.deep.equal({ unregistered: [], elsewhere: [] });
  });
});
