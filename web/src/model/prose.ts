// Scenario explanations are plain text in blocks — paragraphs, numbered or bulleted lists,
// and tables in the pipe form — with three inline marks: **strong**, *emphasis* and
// `code`. Parsed into pieces for React to render (never as HTML).

export type ProsePiece = { kind: 'text' | 'strong' | 'em' | 'code'; text: string };

export type ProseBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'table'; header: string[]; rows: string[][] };

const ITEM = /^(\d+\.|[-*])\s+/;

/** Joins wrapped lines: single newlines inside a block become spaces. */
const joined = (lines: string[]): string => lines.map((l) => l.trim()).join(' ');

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/** Splits text into blocks on blank lines; a block of `|` lines is a table, one that starts with "1." or "-" a list. */
export function blocks(text: string): ProseBlock[] {
  const out: ProseBlock[] = [];
  for (const chunk of text.split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    if (lines.every((l) => l.trim().startsWith('|'))) {
      const [head, ...rest] = lines;
      const rows = rest.filter((l) => !/^\s*\|?\s*:?-{3,}/.test(l)).map(cells);
      out.push({ kind: 'table', header: cells(head!), rows });
    } else if (ITEM.test(lines[0]!.trim())) {
      const items: string[][] = [];
      for (const line of lines) {
        if (ITEM.test(line.trim())) items.push([line.trim().replace(ITEM, '')]);
        else items.at(-1)!.push(line);
      }
      out.push({ kind: 'list', ordered: /^\d/.test(lines[0]!.trim()), items: items.map(joined) });
    } else {
      out.push({ kind: 'paragraph', text: joined(lines) });
    }
  }
  return out;
}

/** The pieces of one paragraph; an unmatched **, * or ` stays as text. */
export function inlinePieces(paragraph: string): ProsePiece[] {
  const pieces: ProsePiece[] = [];
  const pattern = /\*\*(.+?)\*\*|`([^`]+)`|\*([^*\s][^*]*?)\*/g;
  let last = 0;
  for (const match of paragraph.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) pieces.push({ kind: 'text', text: paragraph.slice(last, at) });
    if (match[1] !== undefined) pieces.push({ kind: 'strong', text: match[1] });
    else if (match[2] !== undefined) pieces.push({ kind: 'code', text: match[2] });
    else pieces.push({ kind: 'em', text: match[3] ?? '' });
    last = at + match[0].length;
  }
  if (last < paragraph.length) pieces.push({ kind: 'text', text: paragraph.slice(last) });
  return pieces;
}
