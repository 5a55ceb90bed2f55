import { describe, expect, it } from 'vitest';
import { sameProps } from './sameProps.js';

const mark = { id: 'mark-7', atMs: 12, label: 'worker-1 wrote', details: ['row 1'] };

describe('sameProps', () => {
  it('finds a placed mark the same when its fields are, though the object is new', () => {
    expect(sameProps({ placed: { mark, x: 10, row: 0, flip: false } }, { placed: { mark, x: 10, row: 0, flip: false } })).toBe(true);
  });

  it('sees a move, a new row, a flip and a different mark', () => {
    const placed = { mark, x: 10, row: 0, flip: false };
    expect(sameProps({ placed }, { placed: { ...placed, x: 10.5 } })).toBe(false);
    expect(sameProps({ placed }, { placed: { ...placed, row: 1 } })).toBe(false);
    expect(sameProps({ placed }, { placed: { ...placed, flip: true } })).toBe(false);
    expect(sameProps({ placed }, { placed: { ...placed, mark: { ...mark } } })).toBe(false);
  });

  it('compares a scale by its numbers and a cluster by its words', () => {
    const span = { id: 'work-3', startMs: 0, endMs: null };
    expect(
      sameProps({ span, scale: { startMs: 0, endMs: 300, width: 100 } }, { span, scale: { startMs: 0, endMs: 300, width: 100 } }),
    ).toBe(true);
    expect(
      sameProps({ span, scale: { startMs: 0, endMs: 300, width: 100 } }, { span, scale: { startMs: 0, endMs: 450, width: 100 } }),
    ).toBe(false);
    const cluster = { id: 'cluster-mark-1', count: 3, label: '3 events', details: ['3 × note'] };
    expect(sameProps({ cluster }, { cluster: { ...cluster, details: ['3 × note'] } })).toBe(true);
    expect(sameProps({ cluster }, { cluster: { ...cluster, details: ['2 × note', '1 × exit'] } })).toBe(false);
  });

  it('is never sure beyond two levels: nested objects must be the same object', () => {
    const end = { kind: 'released' };
    expect(sameProps({ lease: { id: 'l', end } }, { lease: { id: 'l', end } })).toBe(true);
    expect(sameProps({ lease: { id: 'l', end } }, { lease: { id: 'l', end: { kind: 'released' } } })).toBe(false);
  });

  it('sees a prop or a field added or taken away', () => {
    expect(sameProps<Record<string, unknown>>({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameProps<Record<string, unknown>>({ p: { a: 1 } }, { p: { b: 1 } })).toBe(false);
    expect(sameProps<Record<string, unknown>>({ p: null }, { p: {} })).toBe(false);
  });
});
