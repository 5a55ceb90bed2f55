// A stand-in `docker` on the PATH for the service finder's tests: no Docker engine runs here,
// so a shell script answers instead, recording its arguments or failing as a stopped engine does.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A `docker` that appends its arguments to `calls`, one call a line, and succeeds. */
export const recordingDocker = (calls: string): string => `#!/bin/sh\necho "$@" >> ${calls}\nexit 0\n`;

/** A `docker` whose engine is not running. */
export const stoppedDocker = (): string => '#!/bin/sh\necho "Cannot connect to the Docker daemon" >&2\nexit 1\n';

/** Runs `body` with `script` as the `docker` first on the PATH; gives it the path of the calls file. */
export async function withFakeDocker<T>(script: (calls: string) => string, body: (calls: string) => Promise<T>): Promise<T> {
  const bin = await mkdtemp(path.join(os.tmpdir(), 'fake-docker-'));
  const calls = path.join(bin, 'calls');
  await writeFile(path.join(bin, 'docker'), script(calls));
  await chmod(path.join(bin, 'docker'), 0o755);
  const savedPath = process.env.PATH;
  process.env.PATH = `${bin}:${savedPath}`;
  try {
    return await body(calls);
  } finally {
    process.env.PATH = savedPath;
    await rm(bin, { recursive: true, force: true });
  }
}
