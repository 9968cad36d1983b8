// A throwaway Apache httpd for tests of stock Apache modules against L2: Debian's apache2 binary started in the
// foreground (`-DFOREGROUND`) with a generated configuration in a temporary folder, on a free port of 127.0.0.1.
// The system's own Apache service and its /etc/apache2 are never used.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's apache2 (package apache2); APACHE_BIN and APACHE_MODULES point elsewhere on other machines. */
export const APACHE_BIN = process.env.APACHE_BIN ?? '/usr/sbin/apache2';
export const APACHE_MODULES = process.env.APACHE_MODULES ?? '/usr/lib/apache2/modules';

/**
 * Whether the Apache tests can run: the binary and every module they load (Debian's apache2,
 * libapache2-mod-auth-openidc and libapache2-mod-oauth2, which .ci/run installs). Without them a developer's run
 * skips with a clear line; under CI=true their absence is a failure, never a silent skip.
 */
export function apacheAvailable(modules: readonly string[]): boolean {
  const missing = [APACHE_BIN, ...modules.map((name) => join(APACHE_MODULES, `mod_${name}.so`))].filter(
    (path) => !existsSync(path),
  );
  if (missing.length === 0) return true;
  const message = `${missing.join(', ')} not found (apt-get install apache2 libapache2-mod-auth-openidc libapache2-mod-oauth2)`;
  if (process.env.CI === 'true') throw new Error(`${message}: the Apache tests cannot be skipped in CI`);
  console.warn(`  skipping the Apache tests: ${message}`);
  return false;
}

/** A port of 127.0.0.1 nobody listens on now (Apache must be told its port before it starts: it is in its URLs). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The configuration block of docs/l1-integration.md marked `<!-- tested-config: NAME -->` (the fenced block right
 * after the marker), so that what the docs tell an operator is exactly what the tests run.
 */
export function testedConfig(name: string): string {
  const docs = readFileSync(new URL('../../docs/l1-integration.md', import.meta.url), 'utf8');
  const block = new RegExp(`<!-- tested-config: ${name} -->\\n+\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n`).exec(
    docs,
  );
  if (!block) throw new Error(`docs/l1-integration.md has no block marked tested-config: ${name}`);
  return block[1]!;
}

/** The modules every test server loads, before the test's own. */
const BASE_MODULES = ['mpm_prefork', 'authn_core', 'authz_core', 'authz_user', 'mime', 'include', 'env'];

export class ApacheServer {
  /** The folder holding httpd.conf, the logs, the document root and the test's files. */
  readonly dir: string;
  readonly url: string;
  private process: ChildProcess | null = null;
  private stderr = '';

  constructor(readonly port: number) {
    this.dir = mkdtempSync(join(tmpdir(), 'l2-apache-'));
    // Apache's workers run as www-data when we are root: they must read the folder and the files in it.
    chmodSync(this.dir, 0o755);
    mkdirSync(this.htdocs, { mode: 0o755 });
    this.url = `http://127.0.0.1:${port}`;
  }

  get htdocs(): string {
    return join(this.dir, 'htdocs');
  }

  /** Makes a folder in this server's folder, readable by Apache's workers. */
  makeFolder(path: string): void {
    mkdirSync(join(this.dir, path), { recursive: true, mode: 0o755 });
  }

  /** Writes a file under the document root (or elsewhere in the folder, for keys), readable by Apache's workers. */
  writeFile(path: string, content: string): string {
    const file = join(this.dir, path);
    writeFileSync(file, content, { mode: 0o644 });
    return file;
  }

  /** Starts httpd with `modules` loaded and `body` after the common part; resolves once it answers. */
  async start(modules: readonly string[], body: string): Promise<this> {
    const loads = [...BASE_MODULES, ...modules]
      .map((name) => `LoadModule ${name}_module ${APACHE_MODULES}/mod_${name}.so`)
      .join('\n');
    const asRoot = process.getuid?.() === 0;
    const config = `${loads}
ServerRoot "${this.dir}"
ServerName 127.0.0.1
Listen 127.0.0.1:${this.port}
PidFile "${this.dir}/httpd.pid"
Mutex file:${this.dir} default
ErrorLog "${this.dir}/error.log"
LogLevel warn
StartServers 3
MinSpareServers 2
MaxSpareServers 5
LogFormat "%m %U%q %{Content-Type}i %>s" requests
CustomLog "${this.dir}/access.log" requests
${asRoot ? 'User www-data\nGroup www-data' : ''}
TypesConfig /dev/null
AddType text/html .shtml
AddOutputFilter INCLUDES .shtml
DocumentRoot "${this.htdocs}"
<Directory "${this.htdocs}">
  Options +Includes
  Require all granted
</Directory>
${body}
`;
    writeFileSync(join(this.dir, 'httpd.conf'), config);
    writeFileSync(join(this.dir, 'access.log'), '', { mode: 0o644 });
    // Several worker processes, not `-X`: while a worker asks L2 to introspect a token, L2 fetches the client's
    // metadata document from this same Apache — with one process that fetch would wait for the worker that waits
    // for it, until L2's 5-second fetch limit refuses the client.
    // Its own process group: at shutdown Apache signals its whole group (prefork's killpg), which would be ours.
    const child = spawn(APACHE_BIN, ['-DFOREGROUND', '-f', join(this.dir, 'httpd.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    this.process = child;
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`apache2 exited (${code}): ${this.stderr}${this.errorLog()}`)),
      ),
    );
    exited.catch(() => undefined);
    // Ready once it answers: a refused connection means it has not bound its port yet.
    for (;;) {
      const answered = await Promise.race([
        fetch(`${this.url}/`).then(
          () => true,
          () => false,
        ),
        exited,
      ]);
      if (answered) return this;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The access log's lines: "<method> <path><query> <request content type, or -> <status>". */
  accessLog(): string[] {
    return readFileSync(join(this.dir, 'access.log'), 'utf8').split('\n').filter(Boolean);
  }

  errorLog(): string {
    const file = join(this.dir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** Resolves once the access log has a line `matches` accepts (it is written when Apache answered the request). */
  async waitForAccess(matches: (line: string) => boolean): Promise<string> {
    for (;;) {
      const line = this.accessLog().find(matches);
      if (line !== undefined) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
