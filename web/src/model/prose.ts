// Scenario explanations are plain text in paragraphs, with two inline marks at most:
// **strong** and `code`. Parsed into pieces for React to render (never as HTML).

export type ProsePiece = { kind: 'text' | 'strong' | 'code'; text: string };

/** Splits text into paragraphs on blank lines; single newlines inside one become spaces. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean);
}

/** The pieces of one paragraph; an unmatched ** or ` stays as text. */
export function inlinePieces(paragraph: string): ProsePiece[] {
  const pieces: ProsePiece[] = [];
  const pattern = /\*\*(.+?)\*\*|`([^`]+)`/g;
  let last = 0;
  for (const match of paragraph.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) pieces.push({ kind: 'text', text: paragraph.slice(last, at) });
    if (match[1] !== undefined) pieces.push({ kind: 'strong', text: match[1] });
    else pieces.push({ kind: 'code', text: match[2] ?? '' });
    last = at + match[0].length;
  }
  if (last < paragraph.length) pieces.push({ kind: 'text', text: paragraph.slice(last) });
  return pieces;
}
