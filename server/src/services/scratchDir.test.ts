import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freePort } from './freePort.js';
import { isAlive } from './pids.js';
import { probeRedis } from './probeRedis.js';
import { makeScratchDir, reapOrphans, recordChild } from './scratchDir.js';

// The pid of a process that has already exited and been reaped.
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

describe('reapOrphans', () => {
  it('stops the server and removes the dir left by a process that died without cleaning up', async () => {
    const dir = await makeScratchDir('redis');
    const port = await freePort();
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    try {
      for (let i = 0; ; i++) {
        try {
          await probeRedis(`redis://127.0.0.1:${port}`);
          break;
        } catch (err) {
          if (i > 100) throw err;
          await sleep(50);
        }
      }
      await recordChild(dir, child.pid!);
      // Pretend the owner was SIGKILLed.
      await writeFile(path.join(dir, 'owner.json'), JSON.stringify({ owner: deadPid(), child: child.pid }));

      const lines: string[] = [];
      expect(await reapOrphans((line) => lines.push(line))).toBeGreaterThanOrEqual(1);
      expect(existsSync(dir)).toBe(false);
      expect(isAlive(child.pid!)).toBe(false);
      expect(lines.some((line) => line.includes(path.basename(dir)))).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves dirs of running owners alone', async () => {
    const dir = await makeScratchDir('pg');
    try {
      await reapOrphans();
      expect(existsSync(dir)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
