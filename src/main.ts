// Entry point: serve.ts with V8's young generation kept small while the service starts.
//
// V8 doubles its young generation each time enough objects survive its collections, and start-up — loading
// modules, migrating, preparing statements — is exactly that: it left the young generation at 16 MiB, kept for as
// long as the service then sat idle. Start-up therefore runs with the growth factor at 1 (the young generation
// stays at its initial size); once the service listens V8's default of 2 is restored, and under load the young
// generation grows as it always did. The flag is read at each growth, so setting it here takes effect (one such as
// --max-semi-space-size, read once when the heap is made, would not). An operator who set the factor keeps it.
import { setFlagsFromString } from 'node:v8';

const V8_DEFAULT_GROWTH_FACTOR = 2;
const operatorSetsGrowth = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
  /semi[-_]space[-_]growth[-_]factor/.test(arg),
);

if (!operatorSetsGrowth) setFlagsFromString('--semi-space-growth-factor=1');
try {
  // Imported only now: loading the service's modules is the first part of start-up.
  const { serve } = await import('./serve.js');
  await serve();
  if (!operatorSetsGrowth) setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
} catch (error) {
  // Imported here, not above: every static import would load before the flag is set.
  const { ConfigError } = await import('./composition/config.js');
  const { StoreUnavailableError } = await import('./application/ports/errors.js');
  // One line, no stack, for what the operator must fix; a stack for anything else.
  const oneLine = error instanceof ConfigError || error instanceof StoreUnavailableError;
  console.error(oneLine ? `l2: ${(error as Error).message}` : error);
  process.exit(1);
}
