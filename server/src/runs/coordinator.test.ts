import { describe, expect, it } from 'vitest';
import { Coordinator } from './coordinator.js';

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('Coordinator', () => {
  it('releases a barrier only when every live worker has arrived', async () => {
    const c = new Coordinator(['a', 'b', 'c'], []);
    const a = c.arrive('cron', 'a');
    const b = c.arrive('cron', 'b');
    expect(await settled(a)).toBe(false);
    c.gone('c'); // a worker that died is no longer waited for
    expect(await settled(a)).toBe(true);
    expect(await settled(b)).toBe(true);
  });

  it('releases waits with the latch that was set, before or after the wait', async () => {
    const c = new Coordinator(['a'], []);
    c.signal('early');
    await expect(c.waitFor(['late', 'early'])).resolves.toBe('early');
    const later = c.waitFor(['x', 'y']);
    c.signal('y');
    await expect(later).resolves.toBe('y');
  });

  it('strikes a "first" fault once, and a targeted fault on its worker only', () => {
    const c = new Coordinator(
      ['a', 'b'],
      [
        { checkpoint: 'holding-lock', target: 'first', action: 'kill' },
        { checkpoint: 'working', target: 'b', action: 'stall', ms: 100 },
      ],
    );
    expect(c.faultAt('holding-lock', 'b')?.action).toBe('kill');
    expect(c.faultAt('holding-lock', 'a')).toBeUndefined();
    expect(c.faultAt('working', 'a')).toBeUndefined();
    expect(c.faultAt('working', 'b')?.ms).toBe(100);
  });
});
