// `l2 <command>`: operator commands that run against the configured store without starting the server.
import { StoreUnavailableError } from './application/ports/errors.js';
import { ConfigError, loadConfig } from './composition/config.js';
import { buildContainer, persistenceOf } from './composition/container.js';
import { runMaintenance } from './composition/maintenance.js';

const USAGE = 'usage: l2 revocations cleanup';

async function run(args: string[]): Promise<number> {
  if (args[0] !== 'revocations' || args[1] !== 'cleanup' || args.length !== 2) {
    console.error(USAGE);
    return 2;
  }
  const container = await buildContainer(loadConfig());
  try {
    await persistenceOf(container).ready();
    const removed = await runMaintenance(container);
    process.stdout.write(
      `removed ${removed.revocations} expired revocation records and ${removed.issuedTokens} expired issued-token records\n`,
    );
    return 0;
  } finally {
    await persistenceOf(container).close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const oneLine = error instanceof ConfigError || error instanceof StoreUnavailableError;
    console.error(oneLine ? `l2: ${(error as Error).message}` : error);
    process.exit(1);
  },
);
