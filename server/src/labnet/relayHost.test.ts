// The relay host: one process of its own for every delay relay a process asks for, not
// that process, and gone with it, even when it is SIGKILLed (its channel closes).
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { builtScript } from '../services/builtScript.js';
import { childrenOf, processState } from '../testing/processTable.js';
import { startHostedDelayRelay, type HostedDelayRelay } from './relayHost.js';

const isRelayHost = (command: string): boolean => command.includes('relayHostMain.js');
/** Running, not gone and not a zombie waiting for whoever inherited it to reap it. */
const alive = (pid: number): boolean => {
  try {
    return processState(pid) !== 'Z';
  } catch {
    return false;
  }
};

const relays: HostedDelayRelay[] = [];
afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.close()));
});

it('runs every relay of this process in one child process', async () => {
  for (let i = 0; i < 3; i++) relays.push(await startHostedDelayRelay('127.0.0.1', { host: '127.0.0.1', port: 9 }));
  expect(new Set(relays.map((r) => r.port)).size).toBe(3);
  expect(childrenOf(process.pid).filter((c) => isRelayHost(c.command))).toHaveLength(1);
});

it('ends when the process that forked it is SIGKILLed', async () => {
  const relayHost = pathToFileURL(builtScript(new URL('./relayHost.js', import.meta.url))).href;
  const processTable = pathToFileURL(builtScript(new URL('../testing/processTable.js', import.meta.url))).href;
  // A process that starts a relay, says its relay host's pid, and waits to be killed.
  const script = `
    const { startHostedDelayRelay } = await import(${JSON.stringify(relayHost)});
    const { childrenOf } = await import(${JSON.stringify(processTable)});
    await startHostedDelayRelay('127.0.0.1', { host: '127.0.0.1', port: 9 });
    const [host] = childrenOf(process.pid).filter((c) => c.command.includes('relayHostMain.js'));
    console.log(host.pid);
    setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const hostPid = await new Promise<number>((resolve, reject) => {
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    parent.once('exit', (code) => reject(new Error(`the parent exited first (${code})`)));
  });
  expect(alive(hostPid)).toBe(true);
  parent.kill('SIGKILL');
  await expect.poll(() => alive(hostPid), { timeout: 10_000 }).toBe(false);
});
