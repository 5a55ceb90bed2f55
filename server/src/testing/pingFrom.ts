// A Redis PING sent from inside a lab host's namespace, by a process of its own: how a test
// sees what a worker there sees of the network (an answer, a refusal, or nothing at all).
import { spawn } from 'node:child_process';
import type { LabHost } from '../labnet/labHost.js';

/** 'PONG', 'timeout' after `timeoutMs`, or the error's code (e.g. 'ECONNREFUSED'). */
export function pingFrom(host: LabHost, address: string, port: number, timeoutMs: number): Promise<string> {
  const script = `const s = require('net').connect(${port}, '${address}');
s.setTimeout(${timeoutMs}, () => { console.log('timeout'); process.exit(0); });
s.on('connect', () => s.write('PING\\r\\n'));
s.on('data', (d) => { console.log(d.toString().trim().replace('+', '')); process.exit(0); });
s.on('error', (e) => { console.log(e.code); process.exit(0); });`;
  const [command, ...args] = host.wrap([process.execPath, '-e', script]);
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => resolve(out.trim()));
  });
}

/** One connection from inside a lab host's namespace, kept open: what a worker's old connection sees across a cut. */
export interface HeldConnection {
  /** Sends one inline Redis command ("PING", "SET k v"). */
  send(command: string): void;
  /** The next reply ("PONG", "OK"; an error's words), or 'timeout' when none comes within `timeoutMs` (a late one is kept for the next call). */
  reply(timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

/** Opens a connection to `address`:`port` from a process inside `host`'s namespace; resolves once it is connected. */
export async function connectFrom(host: LabHost, address: string, port: number): Promise<HeldConnection> {
  const script = `const s = require('net').connect(${port}, '${address}');
s.on('connect', () => console.log('connected'));
s.on('error', (e) => { console.log('error ' + e.code); process.exit(0); });
let got = '';
s.on('data', (d) => {
  got += d;
  for (let i; (i = got.indexOf('\\r\\n')) >= 0; got = got.slice(i + 2)) console.log(got.slice(0, i).replace(/^[+:-]/, ''));
});
let sent = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  sent += d;
  for (let i; (i = sent.indexOf('\\n')) >= 0; sent = sent.slice(i + 1)) s.write(sent.slice(0, i) + '\\r\\n');
});
process.stdin.on('end', () => process.exit(0));`;
  const [command, ...args] = host.wrap([process.execPath, '-e', script]);
  const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    for (let i; (i = partial.indexOf('\n')) >= 0; partial = partial.slice(i + 1)) {
      const line = partial.slice(0, i);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (timeoutMs: number): Promise<string> => {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => {
      const waiter = (l: string): void => {
        clearTimeout(timer);
        resolve(l);
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        resolve('timeout');
      }, timeoutMs);
      waiting.push(waiter);
    });
  };
  const first = await next(5000);
  if (first !== 'connected') {
    child.kill();
    throw new Error(`no connection from ${host.namespace} to ${address}:${port}: ${first}`);
  }
  return {
    send: (line) => void child.stdin.write(`${line}\n`),
    reply: next,
    close() {
      child.stdin.end();
      return exited;
    },
  };
}
