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
