// The server as `npm start` runs it (dist/main.js), as a child process on a free port, for
// tests of what happens to the whole process: Ctrl-C, SIGKILL, a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built server, as `npm start` runs it. */
export const mainScript = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServerProcess {
  server: ChildProcess;
  /** "http://127.0.0.1:<port>", once it listens. */
  address: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

/** Starts dist/main.js with `env` over this process's environment; resolves once it listens. `started` gets each child, to be killed after the tests. */
export async function startServerProcess(env: NodeJS.ProcessEnv, started: ChildProcess[]): Promise<ServerProcess> {
  const server = spawn(process.execPath, [mainScript], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(server);
  let output = '';
  server.stdout.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /playground on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) {
        resolve(found);
        clearInterval(timer);
      }
      if (server.exitCode !== null) {
        reject(new Error(`server exited: ${output}`));
        clearInterval(timer);
      }
    }, 20);
  });
  return { server, address, output: () => output };
}
