// Every scenario folder of racelab's own says where its mistake was seen in the wild: two
// public sources at least, each with a title, an https URL and a one-line summary, and the
// catalog the page receives carries them.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ScenarioManifest, WildSource } from '@racelab/shared';
import { loadCatalog } from './registry.js';

const MIN_SOURCES = 2;
// Folders that hold shared parts, not a scenario.
const NOT_SCENARIOS = new Set(['kit']);

const folders = readdirSync(fileURLToPath(new URL('.', import.meta.url)), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !NOT_SCENARIOS.has(entry.name))
  .map((entry) => entry.name)
  .sort();
// racelab's own scenarios: a folder RACELAB_SCENARIOS names may add others, held to nothing here.
const manifests = (await loadCatalog()).manifests.filter((m) => folders.includes(m.id));

/** What is wrong with a scenario's sources, one line each; empty when all is well. */
function sourceProblems(manifest: ScenarioManifest): string[] {
  const sources = manifest.seenInTheWild ?? [];
  const problems: string[] = [];
  if (sources.length < MIN_SOURCES) problems.push(`${manifest.id}: ${sources.length} sources, ${MIN_SOURCES} at least`);
  for (const [i, source] of sources.entries()) {
    const parsed = WildSource.safeParse(source);
    if (!parsed.success) problems.push(`${manifest.id} #${i + 1}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
    if (/\n/.test(source.summary)) problems.push(`${manifest.id} #${i + 1}: the summary is more than one line`);
  }
  const urls = sources.map((s) => s.url);
  for (const url of new Set(urls)) if (urls.indexOf(url) !== urls.lastIndexOf(url)) problems.push(`${manifest.id}: ${url} twice`);
  return problems;
}

describe('seen in the wild', () => {
  it('is in the catalog for every scenario folder', () => {
    expect(folders.length).toBeGreaterThan(0);
    expect(manifests.map((m) => m.id).sort()).toEqual(folders);
  });

  it(`gives every scenario ${MIN_SOURCES} sources at least, each with a title, an https URL and a one-line summary`, () => {
    expect(manifests.flatMap(sourceProblems)).toEqual([]);
  });

  it('reaches the page: the manifest the server sends parses with its sources', () => {
    for (const manifest of manifests) {
      const sent = ScenarioManifest.parse(JSON.parse(JSON.stringify(manifest)));
      expect(sent.seenInTheWild).toEqual(manifest.seenInTheWild);
    }
  });

  it('names what is wrong with a scenario whose sources fall short', () => {
    const [first] = manifests;
    const source = first!.seenInTheWild![0]!;
    const short: ScenarioManifest = {
      ...first!,
      seenInTheWild: [{ ...source, url: source.url.replace('https:', 'http:') }, { ...source, summary: 'two\nlines' }, source],
    };
    const problems = sourceProblems(short);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(new RegExp(`^${first!.id} #1: `));
    expect(problems[1]).toBe(`${first!.id} #2: the summary is more than one line`);
    expect(problems[2]).toBe(`${first!.id}: ${source.url} twice`);
    expect(sourceProblems({ ...first!, seenInTheWild: [] })).toEqual([`${first!.id}: 0 sources, ${MIN_SOURCES} at least`]);
  });
});
