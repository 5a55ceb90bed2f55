// `racelab check --lock` on the two examples, in real worker processes against the real
// stores: the naive SET NX + DEL fails its release after expiry (read from the lock key's
// history) and exits 1; the fenced lock exits 0. And docs/LIBRARIES.md's scorecard section is
// the one docs/scorecard.json gives.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../docs/generatedSection.js';
import { readScorecard, SCORECARD, withScorecard } from '../docs/scorecardTable.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

async function check(example: string): Promise<{
  code: number;
  result: {
    passed: boolean;
    cells: { fault: string; verdict: string; note: string; byDesign?: boolean; metrics?: Record<string, unknown> }[];
  };
}> {
  try {
    const { stdout } = await promisify(execFile)('node', [cli, 'check', '--lock', `examples/locks/${example}`, '--json'], { cwd: root });
    return { code: 0, result: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, result: JSON.parse(failed.stdout) };
  }
}

describe('racelab check --lock', () => {
  it('reports the naive SET NX + DEL lock: its release after expiry lets a third container in; exit 1', async () => {
    const { code, result } = await check('naive-setnx.mjs');
    expect(code).toBe(1);
    expect(result.passed).toBe(false);
    const release = result.cells.find((c) => c.fault === 'release-after-expiry')!;
    expect(release.verdict).toBe('duplicate work');
    // Read from what Redis told of the lock key: worker-1's lease ran out, and its DEL removed a lock held by another.
    expect(release.note).toMatch(
      /^the key's history: \d+ locks? held by another removed by a release: .* but by worker-1's release after its own lease had expired/,
    );
    expect(release.note).toContain('e-mails 3');
    expect(result.cells.find((c) => c.fault === 'holder-killed')?.verdict).toBe('correct');
    // No fence: its stale write lands, reported as what any lease gives, not as its failure.
    expect(result.cells.find((c) => c.fault === 'stale-write')).toMatchObject({ verdict: 'stale write accepted', byDesign: true });
    // One value for every holder: the promoted replica's grant of it is a grant of its own, and worker-1's write is stale.
    expect(result.cells.find((c) => c.fault === 'failover-before-replication')).toMatchObject({
      verdict: 'stale write accepted',
      byDesign: true,
    });
  }, 60_000);

  it('passes the fenced lock: exit 0', async () => {
    const { code, result } = await check('fenced.mjs');
    expect(code).toBe(0);
    expect(result.cells.map((c) => [c.fault, c.verdict])).toEqual([
      ['stall-past-lease', 'duplicate work'],
      ['release-after-expiry', 'correct'],
      ['stale-write', 'correct'], // its fence reached the row, which rejected the stale write
      ['renewal-starved', 'does not apply'],
      ['holder-killed', 'correct'],
      ['failover-before-replication', 'correct'], // on the primary that failed over, its fence reached the row too
      ['redlock-partition', 'does not apply'], // a lock of one Redis: no Redlock nodes of its own
      ['clock-jump', 'does not apply'],
    ]);
    expect(result.cells.find((c) => c.fault === 'stale-write')?.metrics).toMatchObject({ staleWritesRejected: 1, staleWritesAccepted: 0 });
    // worker-1's lease ran out on Redis's clock; worker-2's lock went only by worker-2's own release.
    expect(result.cells.find((c) => c.fault === 'release-after-expiry')?.note).toContain(
      "the key's history: worker-1's expired, worker-2's deleted; no release removed another holder's lock",
    );
    expect(result.cells.find((c) => c.fault === 'failover-before-replication')?.metrics).toMatchObject({
      maxConcurrentHolders: 2,
      staleWritesAccepted: 0,
    });
    expect(result.cells.find((c) => c.fault === 'redlock-partition')?.note).toContain('spansNodes: true');
  }, 60_000);

  it('refuses a missing module with exit 2', async () => {
    const { code } = await promisify(execFile)('node', [cli, 'check', '--lock', 'examples/locks/none.mjs'], { cwd: root }).then(
      () => ({ code: 0 }),
      (error: { code: number }) => ({ code: error.code }),
    );
    expect(code).toBe(2);
  });
});

describe("docs/LIBRARIES.md's scorecard", () => {
  it('is the one docs/scorecard.json gives (npm run docs writes it)', () => {
    const page = readDocument(SCORECARD);
    expect(withScorecard(page, readScorecard())).toBe(page);
  });
});
