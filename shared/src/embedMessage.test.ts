import { describe, expect, it } from 'vitest';
import { EmbedReport, MAX_EMBED_MS, parseEmbedCommand } from './embedMessage.js';

const ok = (data: unknown) => {
  const parsed = parseEmbedCommand(data);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.command;
};
const refused = (data: unknown) => {
  const parsed = parseEmbedCommand(data);
  expect(parsed.ok).toBe(false);
  return parsed.ok ? '' : parsed.error;
};

describe('the embed commands', () => {
  it('reads every command of version 1', () => {
    expect(ok({ racelab: 1, type: 'play' })).toEqual({ racelab: 1, type: 'play' });
    expect(ok({ racelab: 1, type: 'pause' })).toEqual({ racelab: 1, type: 'pause' });
    expect(ok({ racelab: 1, type: 'seek', ms: 1830 })).toEqual({ racelab: 1, type: 'seek', ms: 1830 });
    expect(ok({ racelab: 1, type: 'step', by: -1 })).toEqual({ racelab: 1, type: 'step', by: -1 });
    expect(ok({ racelab: 1, type: 'select', recording: 'fencing-lease-only.json' })).toMatchObject({
      recording: 'fencing-lease-only.json',
    });
    expect(ok({ racelab: 1, type: 'select', scenario: 'fencing', variant: 'fenced' })).toMatchObject({
      scenario: 'fencing',
      variant: 'fenced',
    });
    expect(ok({ racelab: 1, type: 'select', scenario: 'fencing' })).toMatchObject({ scenario: 'fencing' });
  });

  it('says a message that is not racelab’s is not one', () => {
    for (const data of [null, undefined, 'play', 42, [], { type: 'play' }, { source: 'react-devtools', payload: {} }])
      expect(refused(data)).toMatch(/not a racelab message/);
  });

  it('refuses another version of the protocol', () => {
    expect(refused({ racelab: 2, type: 'play' })).toMatch(/protocol version 2/);
    expect(refused({ racelab: '1', type: 'play' })).toMatch(/protocol version 1 /);
  });

  it('refuses malformed commands without throwing', () => {
    const bad: unknown[] = [
      { racelab: 1, type: 'rewind' },
      { racelab: 1, type: 'seek' },
      { racelab: 1, type: 'seek', ms: -1 },
      { racelab: 1, type: 'seek', ms: Number.NaN },
      { racelab: 1, type: 'seek', ms: Number.POSITIVE_INFINITY },
      { racelab: 1, type: 'seek', ms: MAX_EMBED_MS + 1 },
      { racelab: 1, type: 'seek', ms: '1830' },
      { racelab: 1, type: 'step', by: 2 },
      { racelab: 1, type: 'step', by: 0 },
      { racelab: 1, type: 'play', extra: true },
      { racelab: 1, type: 'select' },
      { racelab: 1, type: 'select', recording: 'a.json', scenario: 'fencing' },
      { racelab: 1, type: 'select', variant: 'fenced' },
      { racelab: 1, type: 'select', recording: '' },
      { racelab: 1, type: 'select', recording: 'x'.repeat(201) },
      Object.create(null),
    ];
    for (const data of bad) expect(refused(data)).not.toBe('');
    expect(refused({ racelab: 1, type: 'seek', ms: -1 })).toMatch(/invalid command at 'ms'/);
  });
});

describe('the embed reports', () => {
  it('accepts what the embed sends and refuses what it must not', () => {
    const shown = { scenario: 'fencing', variant: 'lease-only', recording: 'fencing-lease-only.json', runId: null };
    expect(EmbedReport.safeParse({ racelab: 1, type: 'ready', shown: null }).success).toBe(true);
    expect(EmbedReport.safeParse({ racelab: 1, type: 'ready', shown }).success).toBe(true);
    expect(EmbedReport.safeParse({ racelab: 1, type: 'cursor', ms: 10, endMs: 2000, playing: true }).success).toBe(true);
    expect(EmbedReport.safeParse({ racelab: 1, type: 'verdict', ...shown, pass: false, headline: 'FAIL' }).success).toBe(true);
    expect(EmbedReport.safeParse({ racelab: 1, type: 'ended', ms: 2000 }).success).toBe(true);
    expect(EmbedReport.safeParse({ racelab: 1, type: 'cursor', ms: 10 }).success).toBe(false);
    expect(EmbedReport.safeParse({ racelab: 1, type: 'verdict', ...shown, pass: 'no', headline: 'FAIL' }).success).toBe(false);
  });
});
