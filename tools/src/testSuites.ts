// The unit and integration tests and the browser tests, at the same time: both spend most of
// their time waiting on runs' choreography (stalls, leases, latches), so on a 2-core machine
// the two together take little longer than the longer one alone (measured in docs/TESTS.md).
// The unit tests print as they go; the browser tests' report is held and printed whole when
// they end, so the log reads as two reports, not as one of interleaved lines. Exits 1 when
// either fails. Run by `npm test` after the build and the checks.
import { spawn } from 'node:child_process';

interface Suite {
  name: string;
  script: string;
  /** Printed as it comes (the first suite), or held until the suite ends. */
  live: boolean;
}

const SUITES: Suite[] = [
  { name: 'unit and integration', script: 'test:unit', live: true },
  { name: 'browser', script: 'test:e2e', live: false },
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

const ended = await Promise.all(SUITES.map(runSuite));
for (const { suite, held } of ended) {
  if (suite.live) continue;
  process.stdout.write(`\n── ${suite.name} tests ──\n${held}`);
}
process.stdout.write('\n');
for (const { suite, code, seconds } of ended) {
  process.stdout.write(`${suite.name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
}
process.exitCode = ended.every((e) => e.code === 0) ? 0 : 1;
