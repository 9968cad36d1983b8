// Several instances on one store compare token expiries, and clean up, each with its own clock: clocks must be
// NTP-synced (docs/deploy.md). At start, the store server's clock stands in for the others': one log line when it
// and this process's disagree by more than a second. Only a warning: the clean-up keeps a 5-minute margin.

/** Beyond this difference, in either direction, the start-up warns. */
const TOLERATED_MS = 1000;

/** Logs one warning when `storeClockAheadMs` (absent for a store without a clock of its own) says more than 1 s. */
export async function warnOfClockSkew(
  storeClockAheadMs: (() => Promise<number>) | undefined,
  logger: { warn(fields: Record<string, unknown>, message: string): void },
): Promise<void> {
  if (storeClockAheadMs === undefined) return;
  let offset: number;
  try {
    offset = await storeClockAheadMs();
  } catch {
    return; // A store that cannot answer now is reported by /readyz and every request; the check is a courtesy.
  }
  if (Math.abs(offset) <= TOLERATED_MS) return;
  logger.warn(
    { storeClockAheadMs: offset },
    "the store server's clock and this process's differ by more than 1 s: sync every host's clock with NTP",
  );
}
