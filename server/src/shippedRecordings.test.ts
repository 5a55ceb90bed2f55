// The recordings shipped with the page (web/public/recordings, written by `npm run
// recordings`) against today's event schema and catalog: each parses, index.json lists
// exactly the files there are, every scenario has a broken and a correct run, and each run
// finished with the verdict its variant is built to give. A recording made before a field
// became required, or of a variant that is gone, fails here until it is recorded again.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_SHIPPED_RECORDING_BYTES as MAX_BYTES, parseRecording, ShippedRecordingIndex, type ScenarioManifest } from '@racelab/shared';
import { loadCatalog } from './scenarios/registry.js';

const folder = fileURLToPath(new URL('../../web/public/recordings/', import.meta.url));

const read = (file: string) => readFileSync(`${folder}${file}`, 'utf8');
const index = ShippedRecordingIndex.parse(JSON.parse(read('index.json')));
/** A recording file as plain JSON, loose enough to be broken on purpose. */
type RawRecording = { scenario: { id: string }; variant: string; events: Record<string, unknown>[] };
const readRaw = (file: string) => JSON.parse(read(file)) as RawRecording;
/** The last event of a raw recording (every shipped one has events). */
const lastOf = (r: RawRecording) => r.events[r.events.length - 1]!;

/** What is wrong with a shipped recording's content, in words; empty when nothing is. */
function problemsOf(file: string, text: string, catalog: ScenarioManifest[]): string[] {
  const parsed = parseRecording(text);
  if (!parsed.ok) return [parsed.error];
  const { scenario, variant, events } = parsed.recording;
  const problems: string[] = [];
  if (file !== `${scenario.id}-${variant}.json`) problems.push(`holds ${scenario.id}/${variant}, not what its name says`);
  if (text.length > MAX_BYTES) problems.push(`${text.length} bytes, more than ${MAX_BYTES}`);
  const current = catalog.find((s) => s.id === scenario.id)?.variants.find((v) => v.id === variant);
  if (!current) problems.push(`${scenario.id}/${variant} is not in the catalog`);
  const end = events.at(-1);
  if (end?.type !== 'run-finished') return [...problems, `ends with ${end?.type ?? 'no event'}, not run-finished`];
  if (!end.expectedVerdict) return [...problems, 'its run-finished has no expectedVerdict'];
  if (end.verdict !== end.expectedVerdict) problems.push(`verdict ${end.verdict}, expected ${end.expectedVerdict}`);
  if (current && end.expectedVerdict !== (current.correct ? 'pass' : 'fail'))
    problems.push(
      `a ${current.correct ? 'correct' : 'broken'} variant expected to ${end.expectedVerdict} here: not what it is shipped to show`,
    );
  return problems;
}

describe('shipped recordings', () => {
  it('index.json lists exactly the recordings in the folder, once each', () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.json') && f !== 'index.json');
    expect(index.map((r) => r.file).sort()).toEqual(files.sort());
    expect(new Set(index.map((r) => r.title)).size).toBe(index.length);
  });

  it('each parses with the current schema and finished with its expected verdict', async () => {
    const { manifests } = await loadCatalog();
    const problems = Object.fromEntries(index.map(({ file }) => [file, problemsOf(file, read(file), manifests)]));
    expect(problems).toEqual(Object.fromEntries(index.map(({ file }) => [file, []])));
    // The title the page lists says the verdict the file holds.
    for (const { file, title } of index) expect(title, file).toMatch(lastOf(readRaw(file)).verdict === 'pass' ? / — PASS$/ : / — FAIL$/);
  });

  it('every scenario in the catalog ships a broken and a correct run', async () => {
    const { manifests } = await loadCatalog();
    const shipped = index.map(({ file }) => readRaw(file));
    const kinds = (scenario: ScenarioManifest) =>
      [
        ...new Set(
          shipped.filter((r) => r.scenario.id === scenario.id).map((r) => scenario.variants.find((v) => v.id === r.variant)?.correct),
        ),
      ].sort();
    expect(Object.fromEntries(manifests.map((s) => [s.id, kinds(s)]))).toEqual(
      Object.fromEntries(manifests.map((s) => [s.id, [false, true]])),
    );
  });

  describe('a stale or wrong recording is caught', () => {
    const file = index[0]!.file;
    const original = readRaw(file);
    const edited = (edit: (recording: RawRecording) => void): string => {
      const copy = structuredClone(original);
      edit(copy);
      return JSON.stringify(copy);
    };

    it('the real file passes, so each edit below is what is caught', async () => {
      expect(problemsOf(file, JSON.stringify(original), (await loadCatalog()).manifests)).toEqual([]);
    });

    it('a field the schema requires, missing', async () => {
      const { manifests } = await loadCatalog();
      const noVerdict = edited((r) => delete lastOf(r).verdict);
      expect(problemsOf(file, noVerdict, manifests)).toEqual([expect.stringMatching(/^not a racelab recording.*events\.\d+/)]);
      const noSeq = edited((r) => delete r.events[0]!.seq);
      expect(problemsOf(file, noSeq, manifests)).toEqual([expect.stringMatching(/^not a racelab recording.*'events\.0/)]);
    });

    it('a run recorded before it carried its expected verdict', async () => {
      const old = edited((r) => delete lastOf(r).expectedVerdict);
      expect(problemsOf(file, old, (await loadCatalog()).manifests)).toEqual(['its run-finished has no expectedVerdict']);
    });

    it('a run that failed, or gave a verdict it should not', async () => {
      const { manifests } = await loadCatalog();
      const failed = edited((r) => {
        const { seq, atMs, workerId } = lastOf(r);
        r.events[r.events.length - 1] = { type: 'run-failed', message: 'redis went away', seq, atMs, workerId };
      });
      expect(problemsOf(file, failed, manifests)).toEqual(['ends with run-failed, not run-finished']);
      const flipped = edited((r) => (lastOf(r).verdict = lastOf(r).verdict === 'pass' ? 'fail' : 'pass'));
      expect(problemsOf(file, flipped, manifests)).toEqual([expect.stringMatching(/^verdict (pass|fail), expected (pass|fail)$/)]);
    });

    it('a variant the catalog no longer has', async () => {
      const gone = edited((r) => (r.variant = 'no-such-variant'));
      expect(problemsOf(`${original.scenario.id}-no-such-variant.json`, gone, (await loadCatalog()).manifests)).toEqual([
        `${original.scenario.id}/no-such-variant is not in the catalog`,
      ]);
    });
  });
});
