// What the figures were measured on.
import { availableParallelism, cpus, totalmem } from 'node:os';

export interface Machine {
  readonly cores: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  readonly uvThreadpoolSize: number;
}

export function describeMachine(): Machine {
  return {
    cores: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    // servers.ts starts the service without UV_THREADPOOL_SIZE: bcrypt and key generation share libuv's default 4.
    uvThreadpoolSize: 4,
  };
}
