import { describe, expect, it } from 'vitest';
import { HALF_FIX_LINES, NOT_COMPILED_LINE } from './fixtures/duplicateJobCheck.js';
import { LineSplitter, readProgressLine, readProgressStream, type ProgressLine } from './ndjson.js';

/** A body that arrives in the given pieces, as fetch hands it over. */
function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

const kinds = (lines: ProgressLine[]) => lines.map((l) => (l.ok ? l.progress.kind : `error: ${l.error}`));

describe('the check answer (NDJSON)', () => {
  it('cuts whole lines out of pieces that end mid-line or hold several', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(splitter.push(':2}\n{"c":3}\n{"d"')).toEqual(['{"b":2}', '{"c":3}']);
    expect(splitter.end()).toEqual(['{"d"']);
    expect(splitter.end()).toEqual([]);
  });

  it('reads a recorded answer cut at every byte, each line as soon as it is whole', async () => {
    const text = `${HALF_FIX_LINES.join('\n')}\n`;
    const read: ProgressLine[] = [];
    await readProgressStream(streamOf(text.split('')), (line) => read.push(line));
    expect(kinds(read)).toEqual(['compiled', 'set', 'set', 'set', 'set', 'done']);
  });

  it('reads a last line that has no newline, and skips blank lines', async () => {
    const read: ProgressLine[] = [];
    await readProgressStream(streamOf(['\n', NOT_COMPILED_LINE, '\r\n\n']), (line) => read.push(line));
    expect(read).toEqual([{ ok: true, progress: { kind: 'not-compiled', errors: [{ message: "Cannot find name 'tokn'.", line: 27 }] } }]);
  });

  it('keeps a multi-byte character split across two pieces', async () => {
    const bytes = new TextEncoder().encode(`${JSON.stringify({ kind: 'refused', error: 'trop occupé — réessayez' })}\n`);
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const read: ProgressLine[] = [];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, cut));
        c.enqueue(bytes.slice(cut));
        c.close();
      },
    });
    await readProgressStream(body, (line) => read.push(line));
    expect(read).toEqual([{ ok: true, progress: { kind: 'refused', error: 'trop occupé — réessayez' } }]);
  });

  it('says what is wrong with a line that is not JSON or not a progress line', () => {
    expect(readProgressLine('<html>')).toEqual({ ok: false, error: 'the server sent a line that is not JSON: <html>' });
    const wrong = readProgressLine('{"kind":"set","result":{"index":-1}}');
    expect(wrong?.ok).toBe(false);
    expect(wrong && !wrong.ok && wrong.error).toMatch(/^the server sent a line this page does not read \(result\./);
    expect(readProgressLine('   ')).toBeNull();
  });
});
