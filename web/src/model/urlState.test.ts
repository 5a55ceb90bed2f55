import { describe, expect, it } from 'vitest';
import { duplicateJobManifest } from './fixtures/manifest.js';
import { fitPlan, formatRule, newRule, parsePlan, parseRule, ruleWords, samePlan } from './faultPlan.js';
import { isOfflineReplay, readSetup, safeOrigin, safeRecordingName, writeSetup } from './urlState.js';

describe('fault plans', () => {
  it('round-trips rules through text', () => {
    const rules = [
      { checkpoint: 'between-setnx-and-expire', target: 'first', action: 'kill' as const },
      { checkpoint: 'working', target: 'worker-2', action: 'stall' as const, ms: 500 },
    ];
    expect(rules.map(formatRule)).toEqual(['between-setnx-and-expire:first:kill', 'working:worker-2:stall:500']);
    expect(parsePlan('between-setnx-and-expire:first:kill,working:worker-2:stall:500')).toEqual(rules);
    expect(parsePlan('')).toEqual([]);
    expect(parseRule('working:first:stall')).toBeNull();
    expect(parseRule('after-grant:worker-2:partition:2000')).toEqual({
      checkpoint: 'after-grant',
      target: 'worker-2',
      action: 'partition',
      ms: 2000,
    });
    expect(formatRule({ checkpoint: 'after-grant', target: 'worker-2', action: 'partition', ms: 2000 })).toBe(
      'after-grant:worker-2:partition:2000',
    );
    const isolate = { checkpoint: 'after-grant', target: 'worker-1', action: 'isolate' as const, node: 'node-4' };
    expect(formatRule(isolate)).toBe('after-grant:worker-1:isolate:node-4');
    expect(parseRule('after-grant:worker-1:isolate:node-4')).toEqual(isolate);
    expect(parseRule('after-grant:worker-1:isolate')).toBeNull();
    const isolateFor = { ...isolate, ms: 2000 };
    expect(formatRule(isolateFor)).toBe('after-grant:worker-1:isolate:node-4:2000');
    expect(parseRule('after-grant:worker-1:isolate:node-4:2000')).toEqual(isolateFor);
    expect(parsePlan('after-grant:worker-1:isolate:node-4:2000,after-grant:worker-2:isolate:node-5')).toEqual([
      isolateFor,
      { ...isolate, target: 'worker-2', node: 'node-5' },
    ]);
    expect(parseRule('after-grant:worker-1:isolate:node-4:soon')).toBeNull();
    expect(parseRule('after-grant:worker-1:isolate:node-4:2000:more')).toBeNull();
    expect(parseRule('after-grant:worker-1:partition:2000:node-4')).toBeNull();
    expect(parseRule('working:first:explode')).toBeNull();
    expect(parsePlan('working:first:kill,nope')).toBeNull();
    expect(samePlan(rules, [...rules])).toBe(true);
  });

  it('says a rule in words', () => {
    expect(ruleWords({ checkpoint: 'holding-lock', target: 'first', action: 'kill' })).toBe(
      'the first worker there is killed (SIGKILL) at holding-lock',
    );
    expect(ruleWords({ checkpoint: 'working', target: 'worker-2', action: 'stall', ms: 500 })).toBe(
      'worker-2 stalls 500 ms (SIGSTOP) at working',
    );
    expect(ruleWords({ checkpoint: 'after-grant', target: 'worker-2', action: 'partition', ms: 2000 })).toBe(
      'worker-2 is partitioned 2000 ms (its link down) at after-grant',
    );
    expect(ruleWords({ checkpoint: 'after-grant', target: 'worker-1', action: 'isolate', node: 'node-4' })).toBe(
      "node-4 is isolated from every worker (to the run's end) once worker-1 reaches after-grant",
    );
    expect(ruleWords({ checkpoint: 'after-grant', target: 'first', action: 'isolate', node: 'node-4', ms: 2000 })).toBe(
      'node-4 is isolated from every worker (2000 ms, then it rejoins) once a worker reaches after-grant',
    );
  });

  it('keeps the rules another variant can take', () => {
    const variant = duplicateJobManifest.variants.find((v) => v.checkpoints.length > 0)!;
    const ok = { checkpoint: variant.checkpoints[0]!, target: 'first', action: 'kill' as const };
    const bad = { checkpoint: 'nowhere', target: 'first', action: 'kill' as const };
    expect(fitPlan([ok, bad], variant)).toEqual({ kept: [ok], dropped: [bad] });
    expect(newRule(variant)).toEqual(ok);
    expect(newRule({ ...variant, checkpoints: [] })).toBeNull();
  });
});

describe('the setup in the URL', () => {
  it('round-trips a whole setup', () => {
    const setup = {
      scenario: 'duplicate-job',
      variant: 'blind-del',
      params: { workers: '4', offsetsMs: '0,600,850' },
      faults: [{ checkpoint: 'working', target: 'worker-2', action: 'stall' as const, ms: 500 }],
      speed: 0.5,
      compare: 'token-lua',
      presenter: true,
      theme: 'light' as const,
    };
    const text = writeSetup(setup);
    expect(text).toBe(
      '?scenario=duplicate-job&variant=blind-del&p.workers=4&p.offsetsMs=0,600,850&faults=working:worker-2:stall:500&speed=0.5&compare=token-lua&presenter=1&theme=light',
    );
    expect(readSetup(text)).toEqual(setup);
  });

  it('leaves out what is not said, and ignores what it cannot use', () => {
    expect(writeSetup({ params: {} })).toBe('');
    expect(readSetup('?speed=3&faults=bad&theme=pink&replay=../etc/passwd')).toEqual({ params: {} });
    expect(readSetup('?faults=')).toEqual({ params: {}, faults: [] });
    expect(readSetup('?replay=duplicate-job-blind-del.json').replay).toBe('duplicate-job-blind-del.json');
  });

  it('carries a schedule the explorer found, and drops text that is not one', () => {
    const text = '?scenario=fencing&variant=lease-only&schedule=worker-1,worker-2:expire:lock:document,worker-1:kill';
    const setup = readSetup(text);
    expect(setup.schedule).toBe('worker-1,worker-2:expire:lock:document,worker-1:kill');
    expect(writeSetup(setup)).toBe(text);
    expect(readSetup('?schedule=worker-1:stall').schedule).toBeUndefined();
  });

  it('accepts only plain recording file names', () => {
    expect(safeRecordingName('a-b_c.1.json')).toBe('a-b_c.1.json');
    expect(safeRecordingName('../x.json')).toBeNull();
    expect(safeRecordingName('x.js')).toBeNull();
    expect(safeRecordingName('https://evil/x.json')).toBeNull();
  });

  it('accepts one folder down, as the scorecard’s recordings are, and nothing that leaves the folder', () => {
    expect(safeRecordingName('scorecard/stall-past-lease-lib-redlock.json')).toBe('scorecard/stall-past-lease-lib-redlock.json');
    for (const name of [
      '../x.json',
      'scorecard/../x.json',
      '../scorecard/x.json',
      'a/b/x.json',
      '/x.json',
      'scorecard//x.json',
      '.hidden/x.json',
      'scorecard/.x.json',
      'scorecard\\x.json',
      'scorecard/x.json/',
    ])
      expect(safeRecordingName(name), name).toBeNull();
    const setup = { params: {}, replay: 'scorecard/holder-killed-lib-redlock.json' };
    expect(writeSetup(setup)).toBe('?replay=scorecard/holder-killed-lib-redlock.json');
    expect(readSetup(writeSetup(setup))).toEqual(setup);
    expect(readSetup('?replay=scorecard%2F..%2Fx.json')).toEqual({ params: {} });
  });

  it('keeps the scorecard view in the link', () => {
    expect(writeSetup({ params: {}, scorecard: true, theme: 'light' })).toBe('?scorecard=1&theme=light');
    expect(readSetup('?scorecard=1')).toEqual({ params: {}, scorecard: true });
    expect(readSetup('?scorecard=yes')).toEqual({ params: {} });
  });
});

describe('isOfflineReplay', () => {
  it('is true only for a link to a shipped recording or the scorecard', () => {
    expect(isOfflineReplay('?replay=fencing-lease-only.json')).toBe(true);
    expect(isOfflineReplay('?scorecard=1')).toBe(true);
    expect(isOfflineReplay('?scenario=fencing&variant=fenced')).toBe(false);
    expect(isOfflineReplay('?replay=../../etc/passwd')).toBe(false);
    expect(isOfflineReplay('')).toBe(false);
  });
});

describe('a link to a moment and an embed', () => {
  it('reads the run, the time, the event, the chapter and the embed', () => {
    expect(readSetup('?replay=fencing-lease-only.json&t=1830&event=42')).toMatchObject({
      replay: 'fencing-lease-only.json',
      t: 1830,
      event: 42,
    });
    expect(readSetup('?run=3fa9c01b2e&t=0')).toMatchObject({ run: '3fa9c01b2e', t: 0 });
    expect(readSetup('?presenter=1&chapter=3')).toMatchObject({ presenter: true, chapter: 3 });
    expect(readSetup('?embed=1&replay=a.json&origin=https://blog.example')).toMatchObject({
      embed: true,
      replay: 'a.json',
      origin: 'https://blog.example',
    });
    expect(readSetup('?embed=1&origin=http://localhost:8080').origin).toBe('http://localhost:8080');
  });

  it('drops a time, an event or a chapter that is not a whole number in bounds', () => {
    for (const bad of ['-5', '1.5', 'soon', '', '1e3', '99999999999', ' 7'])
      expect(readSetup(`?t=${encodeURIComponent(bad)}&event=${encodeURIComponent(bad)}&chapter=${encodeURIComponent(bad)}`)).toEqual({
        params: {},
      });
    expect(readSetup('?t=86400001').t).toBeUndefined();
    expect(readSetup('?chapter=0').chapter).toBeUndefined();
    expect(readSetup('?embed=yes').embed).toBeUndefined();
  });

  it('takes only an exact http(s) origin, and a plain run id', () => {
    for (const bad of [
      'https://blog.example/',
      'https://blog.example/post',
      'javascript:alert(1)',
      'null',
      'blog.example',
      'https://user@blog.example',
      'ftp://blog.example',
      '*',
    ])
      expect(readSetup(`?origin=${encodeURIComponent(bad)}`).origin).toBeUndefined();
    expect(safeOrigin('https://blog.example:8443')).toBe('https://blog.example:8443');
    expect(safeOrigin('HTTPS://Blog.Example')).toBeNull(); // not as the browser writes it: event.origin would never equal it
    expect(readSetup('?run=../etc').run).toBeUndefined();
    expect(readSetup(`?run=${'a'.repeat(101)}`).run).toBeUndefined();
  });

  it('writes a moment into a link that reads back the same', () => {
    const setup = {
      params: {},
      replay: 'fencing-lease-only.json',
      t: 1830,
      event: 42,
      embed: true,
      origin: 'https://blog.example',
    };
    const search = writeSetup(setup);
    expect(search).toBe('?embed=1&replay=fencing-lease-only.json&t=1830&event=42&origin=https://blog.example');
    expect(readSetup(search)).toEqual(setup);
    expect(writeSetup({ params: {}, run: 'abc123', t: 12.6 })).toBe('?run=abc123&t=13');
    expect(writeSetup({ params: {}, presenter: true, chapter: 2 })).toBe('?presenter=1&chapter=2');
  });
});
