// The run's upload folder: a real directory of its own under the system's temp dir, where
// the file targets live. Removed by close(), or when this process exits first.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFixture } from '../types.js';

export interface UploadFolder extends RunFixture {
  shared: { dir: string };
  close(): Promise<void>;
}

export async function createUploadFolder(): Promise<UploadFolder> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'racelab-uploads-'));
  const removeSync = (): void => rmSync(dir, { recursive: true, force: true });
  process.on('exit', removeSync);
  return {
    shared: { dir },
    async close() {
      process.off('exit', removeSync);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

