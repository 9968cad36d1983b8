// CPU time spent by processes, from /proc (Linux): where a load's work went — the service, the database server.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface Stat {
  readonly ppid: number;
  /** utime + stime: the process's own CPU time, in ticks. */
  readonly own: number;
  /** cutime + cstime: the CPU time of its children that have exited and been waited for, in ticks. */
  readonly reaped: number;
}

function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces), from field 3 on.
    const fields = text
      .slice(text.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const at = (field: number) => fields[field - 3] ?? 0;
    return { ppid: at(4), own: at(14) + at(15), reaped: at(16) + at(17) };
  } catch {
    return null;
  }
}

/** One process's own CPU seconds so far. */
export function processCpuSeconds(pid: number): number {
  return (stat(pid)?.own ?? 0) / TICKS_PER_SECOND;
}

/**
 * The CPU seconds so far of `root` and every child it has had: its own, its live children's (a PostgreSQL server's
 * backends, one per connection), and those of children that have exited (counted into the parent once reaped).
 */
export function processTreeCpuSeconds(root: number): number {
  const parent = stat(root);
  if (parent === null) return 0;
  let ticks = parent.own + parent.reaped;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = stat(Number(entry));
    if (child?.ppid === root) ticks += child.own + child.reaped;
  }
  return ticks / TICKS_PER_SECOND;
}
