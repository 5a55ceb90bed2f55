import type { ScenarioManifest, SiteCatalog, SiteRecording } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { recordingFor, recordingWords, siteChapters, withCodeOf } from './siteChapters.js';

const scenario = (id: string) => ({ id, title: id, summary: '', variants: [] }) as unknown as ScenarioManifest;
const rec = (scenarioId: string, variant: string, correct: boolean): SiteRecording => ({
  file: `${scenarioId}-${variant}.json`,
  title: `${scenarioId}: ${variant}`,
  scenario: scenarioId,
  variant,
  correct,
});

const site: SiteCatalog = {
  format: 'racelab-site-catalog',
  version: 1,
  scenarios: [scenario('duplicate-job'), scenario('no-recording'), scenario('fencing')],
  recordings: [
    rec('fencing', 'fenced', true),
    rec('duplicate-job', 'token-lua', true),
    rec('duplicate-job', 'blind-del', false),
    rec('fencing', 'lease-only', false),
    rec('duplicate-job', 'setnx-then-expire', false),
  ],
};

describe('the site chapters', () => {
  const chapters = siteChapters(site);

  it('keeps the catalog order and puts each scenario’s broken recordings before its correct ones', () => {
    expect(chapters.map((c) => [c.scenario.id, c.recordings.map(recordingWords)])).toEqual([
      ['duplicate-job', ['broken: blind-del', 'broken: setnx-then-expire', 'correct: token-lua']],
      ['no-recording', []],
      ['fencing', ['broken: lease-only', 'correct: fenced']],
    ]);
  });

  it('shows the selected variant’s recording, else the scenario’s first, else the first scenario’s', () => {
    expect(recordingFor(chapters, 'fencing', 'fenced')?.file).toBe('fencing-fenced.json');
    expect(recordingFor(chapters, 'fencing', 'no-such-variant')?.file).toBe('fencing-lease-only.json');
    expect(recordingFor(chapters, 'fencing', null)?.file).toBe('fencing-lease-only.json');
    expect(recordingFor(chapters, null, null)?.file).toBe('duplicate-job-blind-del.json');
  });

  it('shows nothing for a scenario without a recording or one it does not know', () => {
    expect(recordingFor(chapters, 'no-recording', null)).toBeNull();
    expect(recordingFor(chapters, 'unknown', null)).toBeNull();
    expect(recordingFor([], null, null)).toBeNull();
  });
});

describe('the code a recording brings', () => {
  const withVariants = (id: string, variants: [string, string][]) =>
    ({ id, variants: variants.map(([vid, code]) => ({ id: vid, code })) }) as unknown as ScenarioManifest;
  const catalog = [
    withVariants('fencing', [
      ['lease-only', ''],
      ['fenced', ''],
    ]),
    withVariants('hot-key', [['global-key', '']]),
  ];

  it('fills the empty code of the recording’s scenario and leaves the others as they are', () => {
    const carried = withVariants('fencing', [
      ['lease-only', 'await write();'],
      ['fenced', 'await writeFenced();'],
    ]);
    const filled = withCodeOf(catalog, carried);
    expect(filled.map((s) => s.variants.map((v) => v.code))).toEqual([['await write();', 'await writeFenced();'], ['']]);
    expect(filled[1]).toBe(catalog[1]);
  });

  it('gives back the same catalog when there is nothing to fill', () => {
    expect(withCodeOf(catalog, withVariants('fencing', [['other', 'x']]))).toBe(catalog);
    expect(withCodeOf(catalog, withVariants('unknown', [['lease-only', 'x']]))).toBe(catalog);
    const filled = withCodeOf(catalog, withVariants('fencing', [['fenced', 'new']]));
    expect(withCodeOf(filled, withVariants('fencing', [['fenced', 'newer']]))).toBe(filled);
  });
});
