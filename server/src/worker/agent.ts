// A worker agent: what a container (or any host) runs so that racelab's workers run there,
// driven by a server elsewhere on the network (started with --worker-agents <port>).
//
//   RACELAB_AGENT_TOKEN=… node server/dist/worker/agent.js --server racelab:7071 --slots 5
//
// It connects to the server's agent port, says the shared token and answers the server's
// clock probes (its monotonic clock must be the server's: see agents/agentListener.ts),
// then, on the server's word, forks workerMain.js here as its own child, with IPC, and
// relays every message between that worker and the server as it is; it sends its workers
// the signals the server asks for (a real SIGSTOP, SIGCONT or SIGKILL on this host) and
// reports each one's pid and exit. Its workers never outlive their server's connection:
// when it drops, the agent kills them (SIGCONT, then SIGKILL) before it connects again, with
// backoff. A worker left stopped by an agent that was itself killed is stopped by the next
// agent started on this host (debris/ownedProcesses.ts).
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { readOptions } from '../commandLine.js';
import { own, reapOwnedProcesses } from '../debris/ownedProcesses.js';
import { monotonicNs } from '../time/clock.js';
import { WORKER_ENTRY, WORKER_EXEC_ARGV } from './entry.js';
import {
  AGENT_NAME,
  AGENT_PROTOCOL,
  encodeLine,
  LineReader,
  MAX_LINE_BYTES,
  MAX_SLOTS,
  parseServerAddress,
  parseServerMessage,
  SILENCE_MS,
  type AgentToServer,
  type ServerToAgent,
} from './agentProtocol.js';

const USAGE = `usage: node server/dist/worker/agent.js --server <host:port> [--slots <n>] [--name <name>]
  Runs racelab's workers on this host for a server started with --worker-agents <port>.
  --server  the server's agent port, e.g. racelab:7071 (also RACELAB_AGENT_SERVER)
  --slots   how many workers this host runs at once, 1 to ${MAX_SLOTS} (also RACELAB_AGENT_SLOTS; default 5)
  --name    what the server calls this agent (also RACELAB_AGENT_NAME; default the host name)
  environment: RACELAB_AGENT_TOKEN (required, the server's); REDIS_URL and DATABASE_URL, the stores
  as this host reaches them (the server's own URLs when unset)`;

const options = readOptions(USAGE, {
  server: { type: 'string' },
  slots: { type: 'string' },
  name: { type: 'string' },
});

function usageError(message: string): never {
  console.error(`racelab agent: ${message}\n${USAGE}`);
  process.exit(2);
}

const address = parseServerAddress(options.server ?? process.env.RACELAB_AGENT_SERVER ?? '');
if (!address) usageError('--server <host:port> (or RACELAB_AGENT_SERVER) is required');
const token = process.env.RACELAB_AGENT_TOKEN ?? '';
if (!token) usageError('RACELAB_AGENT_TOKEN is required: the token the server was started with');
const slotsText = options.slots ?? process.env.RACELAB_AGENT_SLOTS ?? '5';
const slots = Number(slotsText);
if (!Number.isInteger(slots) || slots < 1 || slots > MAX_SLOTS)
  usageError(`--slots must be an integer from 1 to ${MAX_SLOTS}, got ${slotsText}`);
const name = options.name ?? process.env.RACELAB_AGENT_NAME ?? os.hostname();
if (!AGENT_NAME.test(name)) usageError(`--name must be letters, digits, '.', '_' or '-' (at most 63), got '${name}'`);

/** Waits before connecting again after the server went or could not be reached, in ms: doubles up to the last. */
const BACKOFF_MS = [250, 500, 1000, 2000, 5000];

const say = (line: string): void => console.log(`racelab agent ${name}: ${line}`);
const complain = (line: string): void => console.error(`racelab agent ${name}: ${line}`);

let socket: net.Socket | undefined;
let accepted = false;
let stores: { redisUrl: string; databaseUrl: string } | undefined;
/** This connection's workers, by the server's ref. */
let workers = new Map<number, ChildProcess>();
let lastHeard = 0;
let failures = 0;
let stopping = false;
let reconnectTimer: NodeJS.Timeout | undefined;

function send(message: AgentToServer): void {
  if (socket && !socket.destroyed) socket.write(encodeLine(message));
}

/** Kills these workers (SIGCONT first: a stopped one is never left stopped) and resolves once all have exited. */
function killAll(children: ChildProcess[]): Promise<void> {
  const exits = children
    .filter((child) => child.exitCode === null && child.signalCode === null)
    .map((child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      return exited;
    });
  return Promise.all(exits).then(() => undefined);
}

function startWorker(ref: number): void {
  const refuse = (error: string): void => send({ kind: 'exit', ref, code: null, signal: null, error });
  if (!accepted || !stores) return refuse('the agent has not been let in yet');
  if (workers.has(ref)) return refuse(`worker ${ref} was started already`);
  if (workers.size >= slots) return refuse(`no free slot: this agent runs at most ${slots} workers`);
  const env: NodeJS.ProcessEnv = { ...process.env, RACELAB_REDIS_URL: stores.redisUrl, RACELAB_DATABASE_URL: stores.databaseUrl };
  delete env.RACELAB_AGENT_TOKEN; // the workers never need the server's secret
  const child = fork(WORKER_ENTRY, [], { env, stdio: ['ignore', 'inherit', 'pipe', 'ipc'], execArgv: WORKER_EXEC_ARGV });
  const mine = (): boolean => workers.get(ref) === child;
  workers.set(ref, child);
  child.on('error', (error) => {
    // A fork that failed has no pid and never exits: say so once.
    if (child.pid === undefined && mine()) {
      workers.delete(ref);
      refuse(`could not fork a worker: ${error.message}`);
    }
  });
  if (child.pid === undefined) return;
  own(child, `worker process of agent ${name}`); // stopped by the next agent here if this one dies first
  send({ kind: 'started', ref, pid: child.pid });
  child.on('message', (message) => {
    if (mine()) send({ kind: 'from-worker', ref, message: message as Extract<AgentToServer, { kind: 'from-worker' }>['message'] });
  });
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (mine()) send({ kind: 'stderr', ref, line: line.slice(0, 10_000) });
  });
  child.once('exit', (code, signal) => {
    if (!mine()) return;
    workers.delete(ref);
    send({ kind: 'exit', ref, code, signal });
  });
}

function handle(message: ServerToAgent): void {
  switch (message.kind) {
    case 'probe':
      // Read at once: the server holds the reading between its own two.
      send({ kind: 'clock', id: message.id, monotonicNs: monotonicNs().toString() });
      break;
    case 'welcome': {
      accepted = true;
      failures = 0;
      stores = { redisUrl: process.env.REDIS_URL || message.redisUrl, databaseUrl: process.env.DATABASE_URL || message.databaseUrl };
      const where = [
        process.env.REDIS_URL ? "this host's REDIS_URL" : "the server's Redis URL",
        process.env.DATABASE_URL ? "this host's DATABASE_URL" : "the server's PostgreSQL URL",
      ];
      say(`in, as ${message.agent}: ${slots} worker slots; stores: ${where.join(' and ')}`);
      break;
    }
    case 'refused':
      complain(`the server refused this agent: ${message.reason}`);
      if (message.final) void stop(2);
      else socket?.destroy();
      break;
    case 'start':
      startWorker(message.ref);
      break;
    case 'to-worker': {
      const child = workers.get(message.ref);
      if (child?.connected) child.send(message.message, () => undefined);
      break;
    }
    case 'signal':
      workers.get(message.ref)?.kill(message.signal);
      break;
  }
}

function connect(): void {
  reconnectTimer = undefined;
  const reader = new LineReader(MAX_LINE_BYTES);
  let reason = 'the connection closed';
  const s = net.connect({ host: address!.host, port: address!.port });
  socket = s;
  s.setNoDelay(true);
  s.on('connect', () => {
    lastHeard = Date.now();
    send({ kind: 'hello', protocol: AGENT_PROTOCOL, token, name, slots });
  });
  s.on('data', (chunk: Buffer) => {
    lastHeard = Date.now();
    let lines: string[];
    try {
      lines = reader.push(chunk);
    } catch (error) {
      reason = `the server sent ${(error as Error).message}`;
      s.destroy();
      return;
    }
    for (const line of lines) {
      if (s.destroyed) return;
      const parsed = parseServerMessage(line);
      if (!parsed.ok) {
        reason = `the server sent ${parsed.error}`;
        s.destroy();
        return;
      }
      handle(parsed.message);
    }
  });
  s.on('error', (error) => (reason = error.message));
  s.on('close', () => void lost(s, reason));
}

/** The connection is gone: its workers go with it, then the agent connects again. */
async function lost(s: net.Socket, reason: string): Promise<void> {
  if (socket !== s) return;
  socket = undefined;
  const wasIn = accepted;
  accepted = false;
  const children = [...workers.values()];
  workers = new Map();
  await killAll(children);
  if (stopping) return;
  if (wasIn || failures === 0) {
    const killed = children.length > 0 ? `; killed its ${children.length} worker${children.length === 1 ? '' : 's'}` : '';
    complain(`${wasIn ? 'lost the server' : `cannot reach the server at ${address!.host}:${address!.port}`} (${reason})${killed}`);
  }
  const wait = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!;
  failures++;
  reconnectTimer = setTimeout(connect, wait);
}

// The other side's sign of life: the server probes the clock every few seconds.
const watch = setInterval(() => {
  if (socket && !socket.connecting && Date.now() - lastHeard > SILENCE_MS) {
    socket.destroy(new Error(`the server said nothing for ${SILENCE_MS / 1000} s`));
  }
}, 1000);

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(watch);
  clearTimeout(reconnectTimer);
  const children = [...workers.values()];
  workers = new Map();
  socket?.destroy();
  await killAll(children);
  process.exit(code);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

const reaped = await reapOwnedProcesses().catch(() => []);
if (reaped.length > 0) say(`stopped what an earlier racelab process here left: ${reaped.join('; ')}`);
say(`connecting to ${address.host}:${address.port}`);
connect();
