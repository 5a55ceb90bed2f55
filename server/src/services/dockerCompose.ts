import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Resolves to null when a Docker engine answers `docker info`, else to why not. */
export async function dockerUnavailableReason(timeoutMs = 5000): Promise<string | null> {
  try {
    await run('docker', ['info', '--format', '{{.ServerVersion}}'], timeoutMs);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'docker is not installed' : 'no Docker engine running (docker info failed)';
  }
}

/** Finds docker-compose.yml by walking up from `start` (default: this file's dir, i.e. the repo root from src/ or dist/). */
export function findComposeFile(start = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'docker-compose.yml');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Runs `docker compose -f <file> up -d <services>`, falling back to the standalone `docker-compose`. Timeout in ms (image pulls are slow). */
export async function composeUp(file: string, services: string[], timeoutMs = 300_000): Promise<void> {
  const args = ['-f', file, 'up', '-d', ...services];
  try {
    await run('docker', ['compose', ...args], timeoutMs);
  } catch (err) {
    // Docker without the compose plugin says "unknown command"; older setups ship docker-compose v1.
    if (!/unknown (shorthand flag|command)|is not a docker command/i.test(String((err as { stderr?: string }).stderr ?? ''))) throw err;
    await run('docker-compose', args, timeoutMs);
  }
}

function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const detail = stderr.trim().split('\n').pop() || err.message.split('\n')[0];
      reject(Object.assign(new Error(`${command} ${args[0]} failed: ${detail}`), { code: err.code, stderr }));
    });
  });
}
