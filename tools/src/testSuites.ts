// The unit and integration tests, then the browser tests, each suite's time printed at the end.
// One after the other, not at the same time: the real-fault tests make and remove veth links on
// the host, and Chromium then fails a navigation in flight with ERR_NETWORK_CHANGED (measured
// together on a 2-core machine: 13.4 min instead of 22, and one such failure in two runs).
// Exits 1 when either fails. Run by `npm test` after the build and the checks.
import { spawn } from 'node:child_process';

interface Suite {
  name: string;
  script: string;
  /** Printed as it comes, or held and printed whole when every suite has ended. */
  live: boolean;
}

const SUITES: Suite[] = [
  { name: 'unit and integration', script: 'test:unit', live: true },
  { name: 'browser', script: 'test:e2e', live: true },
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
for (const suite of SUITES) ended.push(await runSuite(suite));
for (const { suite, held } of ended) {
  if (suite.live) continue;
  process.stdout.write(`\n── ${suite.name} tests ──\n${held}`);
}
process.stdout.write('\n');
for (const { suite, code, seconds } of ended) {
  process.stdout.write(`${suite.name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
}
process.exitCode = ended.every((e) => e.code === 0) ? 0 : 1;
