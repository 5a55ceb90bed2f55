// A worker agent (dist/worker/agent.js) as its own OS process, for tests of workers on other
// hosts: spawned detached, in a process group of its own, with no IPC channel (only its
// output is piped back, for the test to read): it reaches the server over TCP or not at all.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const agentMain = fileURLToPath(new URL('../../dist/worker/agent.js', import.meta.url));

export interface AgentProcess {
  name: string;
  process: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with its exit code and signal once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface AgentStart {
  /** The server's agent port, as "host:port". */
  server: string;
  name: string;
  token: string;
  slots?: number;
  /** Added to its environment (REDIS_URL and DATABASE_URL: the stores as its host reaches them). */
  env?: NodeJS.ProcessEnv;
  /** The command line that runs the agent's where it must run (inside a namespace, say). */
  wrap?: (argv: string[]) => string[];
}

/** Starts an agent; `started` gets it, to be stopped after the tests whatever happens. */
export function startAgent(options: AgentStart, started: AgentProcess[]): AgentProcess {
  const argv = [process.execPath, agentMain, '--server', options.server, '--name', options.name, '--slots', String(options.slots ?? 4)];
  const [command, ...args] = options.wrap ? options.wrap(argv) : argv;
  const child = spawn(command!, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RACELAB_AGENT_TOKEN: options.token, ...options.env },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const agent = { name: options.name, process: child, output: () => output, exited };
  started.push(agent);
  return agent;
}

/** Stops an agent as its container would be (SIGTERM) and resolves with how it exited. */
export async function stopAgent(agent: AgentProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (agent.process.exitCode === null && agent.process.signalCode === null) agent.process.kill('SIGTERM');
  return agent.exited;
}
