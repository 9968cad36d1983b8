import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StandInL2 } from './support/stand-in-l2.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

describe('l1-kit README: the quick start is the whole of a protected route', () => {
  let l2: StandInL2;
  let file: string;
  let server: Server | undefined;

  beforeEach(async () => {
    l2 = await new StandInL2().start();
    file = join(mkdtempSync(join(tmpdir(), 'l1-kit-readme-')), 'quickstart.ts');
  });
  afterEach(async () => {
    rmSync(join(file, '..'), { recursive: true, force: true });
    if (server) await new Promise((resolve) => server!.close(resolve));
    await l2.stop();
  });

  it('runs as written (under 20 lines): the route answers the user, 401 without a token', async () => {
    const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## From zero to a protected route'));
    const block = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    expect(block.trim().split('\n')).to.have.length.below(20);

    const source = (path: string) => JSON.stringify(pathToFileURL(join(PACKAGE, path)).href);
    const express = pathToFileURL(createRequire(import.meta.url).resolve('express')).href;
    const code = block
      .replace("from 'express'", `from ${JSON.stringify(express)}`)
      .replace("'@l2/l1-kit/express'", source('src/adapters/express.ts'))
      .replace("'@l2/l1-kit'", source('src/index.ts'))
      .replace("'https://l2.example'", JSON.stringify(l2.url))
      .replace('app.listen(8300);', "export const server = app.listen(0, '127.0.0.1');");
    writeFileSync(file, code);
    ({ server } = (await import(pathToFileURL(file).href)) as { server: Server });
    if (!server.listening) await new Promise((resolve) => server!.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/me`;

    const token = await l2.issue('alice');
    const me = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).to.equal(200);
    expect(await me.json()).to.deep.include({ username: 'alice', l1Server: null });
    expect((await fetch(url)).status).to.equal(401);
  });
});
