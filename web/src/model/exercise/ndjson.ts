// The check's answer is NDJSON: one ExerciseProgress per line, written as each set is graded.
// Lines are cut from the byte stream as they arrive (a chunk may end mid-line, or hold many),
// and each is held to the shared schema: a line that does not read is said in words, never dropped.
import { ExerciseProgress, type ExerciseProgress as Progress } from '@racelab/shared';

export type ProgressLine = { ok: true; progress: Progress } | { ok: false; error: string };

/** One line of the answer, parsed and checked; a blank line is null. */
export function readProgressLine(line: string): ProgressLine | null {
  const text = line.trim();
  if (!text) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: `the server sent a line that is not JSON: ${text.slice(0, 80)}` };
  }
  const parsed = ExerciseProgress.safeParse(json);
  if (parsed.success) return { ok: true, progress: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    error: `the server sent a line this page does not read (${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'bad shape'})`,
  };
}

/** Cuts whole lines out of text that arrives in pieces; the unfinished tail waits for the next piece. */
export class LineSplitter {
  private tail = '';

  /** The whole lines the piece completes. */
  push(piece: string): string[] {
    const lines = (this.tail + piece).split('\n');
    this.tail = lines.pop() ?? '';
    return lines;
  }

  /** What is left at the end of the stream (a last line without its newline). */
  end(): string[] {
    const rest = this.tail;
    this.tail = '';
    return rest.trim() ? [rest] : [];
  }
}

/** Reads a stream of NDJSON to its end, handing each line to `onLine` as soon as it is whole. */
export async function readProgressStream(body: ReadableStream<Uint8Array>, onLine: (line: ProgressLine) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = new LineSplitter();
  const hand = (lines: string[]) => {
    for (const line of lines) {
      const read = readProgressLine(line);
      if (read) onLine(read);
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hand(splitter.push(decoder.decode(value, { stream: true })));
  }
  hand(splitter.push(decoder.decode()));
  hand(splitter.end());
}
