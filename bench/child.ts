// Runs a bench script in its own Node process (through tsx) and returns the JSON it prints last.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const benchFile = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

/** Spawns `node --import tsx bench/<script> <arg>`; rejects on a non-zero exit or after `timeoutMs`. */
export function runJsonChild<T>(script: string, arg: unknown, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', benchFile(script), JSON.stringify(arg)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} took longer than ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited with ${code}: ${last}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} printed no JSON: ${stdout.slice(-500)}`));
      }
    });
  });
}
