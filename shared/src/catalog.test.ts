import { describe, expect, it } from 'vitest';
import { defaultParams, resolveParams, WildSource, type ScenarioManifest } from './catalog.js';

const manifest: ScenarioManifest = {
  id: 'demo',
  title: 'Demo',
  summary: '',
  explanation: '',
  metrics: [],
  params: [
    { kind: 'int', name: 'workers', label: 'Workers', help: '', min: 1, max: 20, default: 3 },
    {
      kind: 'choice',
      name: 'arrival',
      label: 'Arrival',
      help: '',
      options: [
        { value: 'together', label: 'together' },
        { value: 'late', label: 'late' },
      ],
      default: 'together',
    },
    { kind: 'int-list', name: 'sales', label: 'Sales', help: '', min: 1, max: 100, minItems: 1, maxItems: 5, default: [3, 2] },
  ],
  variants: [
    { id: 'plain', title: '', correct: false, summary: '', code: '', defaults: {}, faults: [], checkpoints: [] },
    { id: 'late', title: '', correct: true, summary: '', code: '', defaults: { arrival: 'late' }, faults: [], checkpoints: [] },
  ],
};

describe('resolveParams', () => {
  it("fills in scenario defaults, then the variant's", () => {
    expect(defaultParams(manifest, 'plain')).toEqual({ workers: 3, arrival: 'together', sales: [3, 2] });
    expect(resolveParams(manifest, 'late', {})).toEqual({
      ok: true,
      params: { workers: 3, arrival: 'late', sales: [3, 2] },
    });
  });

  it('takes strings as the CLI and the URL give them', () => {
    expect(resolveParams(manifest, 'plain', { workers: '7', sales: '4, 1,2' })).toEqual({
      ok: true,
      params: { workers: 7, arrival: 'together', sales: [4, 1, 2] },
    });
  });

  it.each([
    [{ workers: 0 }, "parameter 'workers' must be an integer from 1 to 20, got 0"],
    [{ workers: '2.5' }, "parameter 'workers' must be an integer from 1 to 20, got 2.5"],
    [{ workers: 1e300 }, "parameter 'workers' must be an integer from 1 to 20, got 1e+300"],
    [{ workers: '' }, "parameter 'workers' is empty: it must be an integer from 1 to 20"],
    [{ workers: '  ' }, "parameter 'workers' is empty: it must be an integer from 1 to 20"],
    [{ sales: '' }, "parameter 'sales' is empty: it must be a comma-separated list of 1 to 5 integers from 1 to 100"],
    [{ workers: null }, "parameter 'workers' must be an integer from 1 to 20, got null"],
    [{ arrival: 'soon' }, "parameter 'arrival' must be one of together, late, got soon"],
    [{ sales: '1,2,3,4,5,6' }, "parameter 'sales' must be a comma-separated list of 1 to 5 integers from 1 to 100, got 1,2,3,4,5,6"],
    [{ sales: [1, 'x'] }, 'parameter \'sales\' must be a comma-separated list of 1 to 5 integers from 1 to 100, got [1,"x"]'],
    [{ nope: 1 }, "unknown parameter 'nope' for demo; known: workers, arrival, sales"],
  ])('rejects %j with a message naming the parameter', (raw, error) => {
    expect(resolveParams(manifest, 'plain', raw)).toEqual({ ok: false, error });
  });

  it('cuts an absurdly long value short in its message', () => {
    const result = resolveParams(manifest, 'plain', { workers: 'x'.repeat(10_000) });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.length).toBeLessThan(120);
  });
});

describe('WildSource', () => {
  const source = { title: 'Jepsen: etcd 3.4.3', url: 'https://jepsen.io/analyses/etcd-3.4.3', summary: 'Locks were unsafe.' };

  it('takes a title, an https URL and a summary', () => {
    expect(WildSource.parse(source)).toEqual(source);
  });

  it('refuses a plain-http URL, something that is no URL, and an empty title or summary', () => {
    expect(WildSource.safeParse({ ...source, url: 'http://jepsen.io/analyses/etcd-3.4.3' }).success).toBe(false);
    expect(WildSource.safeParse({ ...source, url: 'jepsen etcd' }).success).toBe(false);
    expect(WildSource.safeParse({ ...source, title: ' ' }).success).toBe(false);
    expect(WildSource.safeParse({ ...source, summary: '' }).success).toBe(false);
  });
});
