// What a worker checks before it serves another explored run: a process left with a timer or
// a socket of its run is seen to hold it, one left with only its stdio and IPC channel is not.
// Each case in a process of its own (the test runner's process holds handles of its own).
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { builtScript } from '../services/builtScript.js';

const reuse = pathToFileURL(builtScript(new URL('./workerReuse.js', import.meta.url))).href;

/** What leftBehind() says in a fresh process after `before` ran there. */
function leftAfter(before: string): Promise<string[]> {
  const script = `import { leftBehind } from '${reuse}';\n${before}\nprocess.send(await leftBehind(), () => process.exit(0));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (kinds) => resolve(kinds as string[]));
    child.once('exit', (code) => reject(new Error(`exited with ${code} before it answered`)));
  });
}

it('sees nothing left in a process that kept only its stdio and IPC channel', async () => {
  expect(await leftAfter('const t = setTimeout(() => undefined, 60_000); clearTimeout(t);')).toEqual([]);
});

it('sees a timer a run left running', async () => {
  expect(await leftAfter('setInterval(() => undefined, 60_000);')).toEqual(['Timeout']);
});

it('sees a socket a run left open', async () => {
  const left = await leftAfter(`import { createServer } from 'node:net'; createServer().listen(0, '127.0.0.1');`);
  expect(left).toContain('TCPServerWrap');
});
