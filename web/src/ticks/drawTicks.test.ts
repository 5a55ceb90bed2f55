import { describe, expect, it } from 'vitest';
import { drawTicks, TICKS_PX, type TickCanvas } from './drawTicks.js';

function fakeCanvas() {
  const calls: string[] = [];
  const context = {
    set fillStyle(c: string) {
      calls.push(`fill ${c}`);
    },
    clearRect: (x: number, y: number, w: number, h: number) => calls.push(`clear ${x} ${y} ${w} ${h}`),
    fillRect: (x: number, y: number, w: number, h: number) => calls.push(`rect ${x} ${y} ${w} ${h}`),
  } as unknown as CanvasRenderingContext2D;
  const target: TickCanvas = { canvas: { width: 0, height: 0 }, context, drawnAny: false };
  return { target, calls };
}

describe('drawing a lane’s ticks', () => {
  it('sizes the canvas, draws each tick at its time, and names the first and last drawn', () => {
    const { target, calls } = fakeCanvas();
    let asked = 0;
    const drawn = drawTicks(
      target,
      [
        { seq: 4, atMs: 100 },
        { seq: 9, atMs: 250 },
      ],
      { startMs: 0, endMs: 1000 },
      400,
      2,
      () => {
        asked++;
        return '#f80';
      },
    );
    expect(target.canvas).toEqual({ width: 800, height: TICKS_PX * 2 });
    expect(calls).toEqual(['fill #f80', 'rect 78 0 4 20', 'rect 198 0 4 20']);
    expect(drawn).toEqual({ first: 4, last: 9 });
    expect(asked).toBe(1);
    expect(target.drawnAny).toBe(true);
  });

  it('blanks what it drew before, and asks for no colour when there is nothing to draw', () => {
    const { target, calls } = fakeCanvas();
    drawTicks(target, [{ seq: 1, atMs: 10 }], { startMs: 0, endMs: 100 }, 100, 1, () => '#000');
    calls.length = 0;
    const drawn = drawTicks(target, [], { startMs: 0, endMs: 100 }, 100, 1, () => {
      throw new Error('no colour needed');
    });
    expect(calls).toEqual([`clear 0 0 100 ${TICKS_PX}`]);
    expect(drawn).toBeNull();
    expect(target.drawnAny).toBe(false);
  });
});
