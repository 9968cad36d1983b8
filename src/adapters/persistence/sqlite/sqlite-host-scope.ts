import { ruleKeyRange, type HostScope } from '../../../domain/domain-rules.js';

/**
 * The condition that keeps only rows whose `host_key` one of `count` allow-rule keys covers: one index range per key
 * (`host_key >= ? AND host_key < ?`), none of them overlapping (allowlistScope makes them minimal). No key: no row.
 */
export function scopeCondition(count: number): string {
  if (count === 0) return '0';
  return `(${Array.from({ length: count }, () => '(host_key >= ? AND host_key < ?)').join(' OR ')})`;
}

/** The parameters of `scopeCondition(scope.allowKeys.length)`: each key's range, in order. */
export function scopeParameters(scope: NonNullable<HostScope>): string[] {
  return scope.allowKeys.flatMap((key) => {
    const { from, below } = ruleKeyRange(key);
    return [from, below];
  });
}
