// The unit and integration tests and the browser tests, at the same time, each suite's time
// printed at the end: the unit tests' output as it comes, the browser's held and printed whole
// when both have ended. The browser suite is mostly waiting (its runs' choreography, the page's
// animations: a quarter of a core on average), so beside the unit tests it costs their time
// little and saves its own. At the same time only where the browser runs under the netlink shim
// (server/src/testing/noNetlink.c): the real-fault tests make and remove veth links on the host,
// and a Chromium that watches the host's links fails a request in flight with
// ERR_NETWORK_CHANGED. Where the shim cannot be built, one after the other, as the reason says.
// Exits 1 when either fails. Run by `npm test` after the build and the checks.
import { spawn } from 'node:child_process';
import { netlinkShim } from '@racelab/server';

interface Suite {
  name: string;
  script: string;
  /** Printed as it comes, or held and printed whole when every suite has ended. */
  live: boolean;
}

const shim = netlinkShim();
const together = !('why' in shim);
const SUITES: Suite[] = [
  { name: 'unit and integration', script: 'test:unit', live: true },
  { name: 'browser', script: 'test:e2e', live: !together },
];

interface Ended {
  suite: Suite;
  code: number;
  seconds: number;
  held: string;
}

function runSuite(suite: Suite): Promise<Ended> {
  const started = performance.now();
  const child = spawn('npm', ['run', suite.script, '--silent'], { stdio: suite.live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const held: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
  return new Promise((resolve) => {
    const end = (code: number): void =>
      resolve({ suite, code, seconds: (performance.now() - started) / 1000, held: Buffer.concat(held).toString('utf8') });
    child.on('error', (error) => {
      held.push(Buffer.from(`could not start npm run ${suite.script}: ${error.message}\n`));
      end(1);
    });
    child.on('close', (code, signal) => end(code ?? (signal ? 1 : 0)));
  });
}

const ended: Ended[] = [];
if ('why' in shim) {
  process.stdout.write(`The suites run one after the other: ${shim.why}.\n`);
  for (const suite of SUITES) ended.push(await runSuite(suite));
} else {
  process.stdout.write('The unit and browser suites run at the same time; the browser’s output follows when both have ended.\n');
  ended.push(...(await Promise.all(SUITES.map(runSuite))));
}
for (const { suite, held } of ended) {
  if (suite.live) continue;
  process.stdout.write(`\n── ${suite.name} tests ──\n${held}`);
}
process.stdout.write('\n');
for (const { suite, code, seconds } of ended) {
  process.stdout.write(`${suite.name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
}
process.exitCode = ended.every((e) => e.code === 0) ? 0 : 1;
