import { describe, expect, it } from 'vitest';
import { runs } from './fixtures/runs/index.js';
import { markIdOf, selectedEventWords, seqOfMarkId } from './selectedEvent.js';

describe('the selected event', () => {
  const events = runs['fencing/lease-only']!;

  it('is named by its mark where it draws one, else by its kind and time', () => {
    const write = events.find((e) => e.type === 'write-accepted')!;
    expect(selectedEventWords(events, write.seq)).toMatch(new RegExp(`^${write.workerId} write to .* accepted`));
    const started = events.find((e) => e.type === 'run-started')!;
    expect(selectedEventWords(events, started.seq)).toMatch(/^run-started at /);
    expect(selectedEventWords(events, 1e6)).toBeNull();
  });

  it('goes to and from a mark id', () => {
    expect(seqOfMarkId(markIdOf(42))).toBe(42);
    expect(seqOfMarkId('call-42')).toBeNull();
    expect(seqOfMarkId(null)).toBeNull();
  });
});
