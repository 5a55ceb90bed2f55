// The unit and integration tests, then the browser tests; at the end, each suite's time and
// the lines that named its failing tests.
// One after the other, not at the same time. At the same time they were tried twice on a
// 2-core machine (2026-12-06, the browser blind to the host's links under the netlink shim,
// server/src/testing/noNetlink.c, so ERR_NETWORK_CHANGED was no longer the obstacle): the
// machine was 100 % busy throughout and runs whose choreography has windows of a few hundred
// ms failed on timing (near-misses of stalled-job and pooled-advisory-lock, cron-clock-skew's
// real clocks at a 600 ms slot), and the lost-server room found registered runs of its live
// servers gone before its kill (the cause not found). Each of those passes alone. Exits 1 when either fails. Run by `npm test`
// after the build and the checks.
import { spawn } from 'node:child_process';
import { failureNamed } from './failureNamed.js';

interface Suite {
  name: string;
  script: string;
}

const SUITES: Suite[] = [
  { name: 'unit and integration', script: 'test:unit' },
  { name: 'browser', script: 'test:e2e' },
];

interface Ended {
  suite: Suite;
  code: number;
  seconds: number;
  /** The lines that named a failing test, in the order they came, each once. */
  failing: string[];
}

/** Runs one suite, its output passed through as it comes and read for the tests that failed. */
function runSuite(suite: Suite): Promise<Ended> {
  const started = performance.now();
  // Piped, not inherited, so its lines can be read: colours kept where the terminal has them.
  const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;
  const child = spawn('npm', ['run', suite.script, '--silent'], { stdio: ['inherit', 'pipe', 'pipe'], env });
  const failing = new Set<string>();
  const read = (sink: NodeJS.WriteStream) => {
    let partial = '';
    return (chunk: Buffer) => {
      sink.write(chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const named = failureNamed(line);
        if (named) failing.add(named);
      }
    };
  };
  child.stdout.on('data', read(process.stdout));
  child.stderr.on('data', read(process.stderr));
  return new Promise((resolve) => {
    const end = (code: number): void => resolve({ suite, code, seconds: (performance.now() - started) / 1000, failing: [...failing] });
    child.on('error', (error) => {
      process.stderr.write(`could not start npm run ${suite.script}: ${error.message}\n`);
      end(1);
    });
    child.on('close', (code, signal) => end(code ?? (signal ? 1 : 0)));
  });
}

const ended: Ended[] = [];
for (const suite of SUITES) ended.push(await runSuite(suite));
process.stdout.write('\n');
// The end of the output says what failed in either suite: a long run's first suite scrolls
// far out of sight (and out of a CI log's tail) while the second runs.
for (const { suite, code, seconds, failing } of ended) {
  process.stdout.write(`${suite.name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
  for (const line of failing.slice(0, 30)) process.stdout.write(`  ${line}\n`);
  if (failing.length > 30) process.stdout.write(`  … and ${failing.length - 30} more lines naming failures\n`);
}
process.exitCode = ended.every((e) => e.code === 0) ? 0 : 1;
