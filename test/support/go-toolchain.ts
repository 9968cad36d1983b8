import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Go and golang.org/x/mod's sources in GOPATH mode, as Debian packages them (golang-go,
 * golang-golang-x-mod-dev): no module download, so the check runs offline. TLOG_GO_GOPATH points
 * elsewhere on other machines.
 */
export const GO_GOPATH = process.env.TLOG_GO_GOPATH ?? '/usr/share/gocode';

export const goEnvironment = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GO111MODULE: 'off',
  GOPATH: GO_GOPATH,
  GOFLAGS: '',
  // Go needs a build cache; without HOME it has nowhere to put one.
  GOCACHE:
    process.env.GOCACHE ??
    (process.env.HOME ? join(process.env.HOME, '.cache', 'go-build') : join(tmpdir(), 'l2-go-build')),
});

/**
 * Whether the Go interoperability check can run. Without Go a developer's run skips it with a clear
 * line; under CI=true that is a failure, never a silent skip.
 */
export function goCheckAvailable(): boolean {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  const sources = join(GO_GOPATH, 'src', 'golang.org', 'x', 'mod', 'sumdb', 'tlog');
  const missing =
    go.error || go.status !== 0
      ? '`go` not found (apt-get install golang-go)'
      : !existsSync(sources)
        ? `golang.org/x/mod not found under ${GO_GOPATH} (apt-get install golang-golang-x-mod-dev, or set TLOG_GO_GOPATH)`
        : null;
  if (missing === null) return true;
  if (process.env.CI === 'true')
    throw new Error(`${missing}: the Go transparency log check cannot be skipped in CI`);
  console.warn(`  skipping the Go transparency log check: ${missing}`);
  return false;
}
