// A page whose server dies mid-run: a workshop of its own (`npm run workshop`'s launcher: two
// servers behind HAProxy), a run going on the server the page's cookie names, that server
// SIGKILLed. The page reconnects through the proxy to the other server, says the run was lost
// with its server (not that it failed), and runs it again from the keyboard to its verdict.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { eventsOf, parseServerMessage, runLostWords } from '@racelab/shared';
import { openPlayground } from './racelab.js';

const LAUNCHER = fileURLToPath(new URL('../../server/dist/workshop/main.js', import.meta.url));
const hasHaproxy = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin'].some((dir) => existsSync(`${dir}/haproxy`));

/** The launcher, and the address it printed once every server and the proxy answered. */
async function startWorkshop(): Promise<{ launcher: ChildProcess; url: string }> {
  const env = { ...process.env, RACELAB_POOL_SIZE: '1', RACELAB_HOST_ID: `lost-server-e2e-${randomBytes(4).toString('hex')}` };
  const launcher = spawn(process.execPath, [LAUNCHER, '--servers', '2'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    launcher.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /racelab workshop: (http:\/\/127\.0\.0\.1:\d+\/) \(HAProxy/.exec(output);
      if (found) resolve(found[1]!);
    });
    launcher.once('exit', (code) => reject(new Error(`the workshop launcher exited with ${code}: ${output}`)));
  });
  return { launcher, url };
}

/** The pid of the launcher's server named `name` (its RACELAB_SERVER_NAME), from /proc. */
function serverPid(launcher: number, name: string): number {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== launcher) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`RACELAB_SERVER_NAME=${name}`)) return Number(entry);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  throw new Error(`no server ${name} of the workshop launcher ${launcher}`);
}

test.describe('a page whose server dies mid-run', () => {
  test.skip(!hasHaproxy, 'HAProxy is not on this machine');
  let launcher: ChildProcess | undefined;
  test.afterAll(async () => {
    if (!launcher || launcher.exitCode !== null) return;
    const exited = new Promise((resolve) => launcher!.once('exit', resolve));
    launcher.kill('SIGTERM');
    await exited;
  });

  test('says the run was lost with its server and runs it again to its verdict', async ({ page, context }) => {
    test.setTimeout(240_000);
    const workshop = await startWorkshop();
    launcher = workshop.launcher;
    // The page holds its socket itself (no OffscreenCanvas), so that the test sees its frames.
    await page.addInitScript(() => {
      delete (window as { OffscreenCanvas?: unknown }).OffscreenCanvas;
    });
    let working = () => {};
    const atWork = new Promise<void>((resolve) => (working = resolve));
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const parsed = parseServerMessage(String(payload));
        if (parsed.ok && eventsOf(parsed.message).some((e) => e.type === 'work-started')) working();
      }),
    );
    await openPlayground(page, `${workshop.url}?scenario=duplicate-job&variant=token-lua&p.workMs=8000`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // The holder is at work for 8 s: the run is registered and going on the page's server.
    await atWork;
    const server = (await context.cookies()).find((c) => c.name === 'RACELAB_SERVER')?.value;
    expect(server).toMatch(/^s[12]$/);
    process.kill(serverPid(launcher.pid!, server!), 'SIGKILL');

    const verdict = page.getByRole('region', { name: 'Verdict' });
    await expect(verdict.getByRole('status')).toHaveText('LOST — the run went with its server', { timeout: 60_000 });
    await expect(verdict.getByRole('alert')).toContainText(runLostWords(server));
    const again = verdict.getByRole('button', { name: 'Run it again' });
    await again.focus();
    await expect(again).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(verdict.getByRole('status')).toHaveText(/^PASS/, { timeout: 90_000 });
    await expect(verdict).toContainText('E-mails sent: 1 — should be 1');
    // The page's new server is the one still alive.
    const now = (await context.cookies()).find((c) => c.name === 'RACELAB_SERVER')?.value;
    expect(now).not.toBe(server);
  });
});
