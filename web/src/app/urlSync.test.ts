import { describe, expect, it } from 'vitest';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { createAppStore } from '../store/index.js';
import { setupOf, startUrlSync } from './urlSync.js';

function fakeLocation(search: string) {
  const location = { search, pathname: '/', hash: '' } as Location;
  const history = {
    state: null,
    replaceState(_s: unknown, _t: string, url: string) {
      location.search = url.slice(1).replace(/^[^?]*/, '');
    },
  } as unknown as History;
  return { location, history };
}

describe('the URL holds the setup', () => {
  it('says only what differs from the variant’s defaults', () => {
    const store = createAppStore();
    store.getState().setCatalog([duplicateJobManifest]);
    expect(setupOf(store.getState())).toEqual({ scenario: 'duplicate-job', variant: 'no-lock', params: {} });
    store.getState().setParamInput('workers', '5');
    store.getState().setSpeed(0.5);
    expect(setupOf(store.getState())).toEqual({ scenario: 'duplicate-job', variant: 'no-lock', params: { workers: '5' }, speed: 0.5 });
  });

  it('restores a link once the catalog arrives, then follows every change', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?scenario=duplicate-job&variant=blind-del&p.workers=4&faults=&speed=0.25&presenter=1');
    startUrlSync(store, location, history);
    expect(store.getState().presenter).toBe(true);
    expect(location.search).toContain('p.workers=4'); // untouched before the catalog
    store.getState().setCatalog([duplicateJobManifest]);
    const s = store.getState();
    expect([s.variantId, s.paramInputs.workers, s.faults, s.speed]).toEqual(['blind-del', '4', [], 0.25]);
    store.getState().setParamInput('workers', '6');
    expect(location.search).toBe('?scenario=duplicate-job&variant=blind-del&p.workers=6&faults=&speed=0.25&presenter=1');
  });

  it('opens the scorecard from a link and keeps it in the link, with no catalog', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?scorecard=1');
    startUrlSync(store, location, history);
    expect(store.getState().scorecard).toBe(true);
    store.getState().setScorecard(false);
    expect(location.search).toBe('');
    store.getState().setScorecard(true);
    expect(location.search).toBe('?scorecard=1');
  });
});
