// The scenario table's figures are written by hand beside each variant's code; the shipped
// recordings are real runs at the defaults (a broken and a correct variant of each scenario).
// Where a variant's figures name a metric by its label, the number must be the one its
// recorded run measured: a default or a mechanism changed without the figures fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultParams, parseRecording } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../scenarios/registry.js';
import { namedFigures } from './namedFigures.js';

const folder = fileURLToPath(new URL('../../../web/public/recordings/', import.meta.url));
const catalog = await loadCatalog();

const recorded = readdirSync(folder)
  .filter((f) => f.endsWith('.json') && f !== 'index.json')
  .map((file) => {
    const parsed = parseRecording(readFileSync(`${folder}${file}`, 'utf8'));
    if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`);
    const { scenario, variant, events } = parsed.recording;
    const manifest = catalog.manifests.find((m) => m.id === scenario.id)!;
    const started = events.find((e) => e.type === 'run-started');
    const defaults = defaultParams(manifest, variant);
    const finished = events.at(-1);
    return {
      file,
      // Each parameter it ran with at today's default (one added since is absent from it).
      atDefaults:
        started?.type === 'run-started' &&
        Object.entries(started.params).every(([name, value]) => JSON.stringify(value) === JSON.stringify(defaults[name])),
      metrics: finished?.type === 'run-finished' ? finished.metrics : {},
      named: namedFigures(catalog.scenarios.get(scenario.id)!.variants.find((v) => v.id === variant)!.figures ?? '', manifest.metrics),
    };
  });

describe('the figures at the defaults and the shipped recordings', () => {
  it('reads a figure named by its label, in any case, and nothing else', () => {
    const metrics = [
      { name: 'maxConcurrentHolders', label: 'Max concurrent holders' },
      { name: 'emailsSent', label: 'E-mails sent' },
      { name: 'lockTtlAfterRunMs', label: 'Lock TTL after run (ms)' },
    ];
    expect(namedFigures('lease 1 s: max concurrent holders 2, e-mails 3', metrics)).toEqual([{ metric: 'maxConcurrentHolders', value: 2 }]);
    expect(namedFigures('E-mails sent -1', metrics)).toEqual([{ metric: 'emailsSent', value: -1 }]);
  });

  it('are recorded at the defaults', () => {
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.filter((r) => !r.atDefaults).map((r) => r.file)).toEqual([]);
  });

  it('agree wherever the figures name a metric', () => {
    const checked = recorded.flatMap((r) =>
      r.named.map((f) => ({ file: r.file, metric: f.metric, figures: f.value, recorded: r.metrics[f.metric] })),
    );
    // Most recordings have a figure named by its label; a check that reads none would check nothing.
    expect(new Set(checked.map((c) => c.file)).size).toBeGreaterThan(recorded.length / 2);
    expect(checked.filter((c) => c.figures !== c.recorded)).toEqual([]);
  });
});
