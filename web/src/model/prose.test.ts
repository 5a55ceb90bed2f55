import { describe, expect, it } from 'vitest';
import { blocks, inlinePieces } from './prose.js';

describe('prose', () => {
  it('splits paragraphs on blank lines and joins wrapped lines', () => {
    expect(blocks('One\nline.\n\n  Two.  \n\n\n')).toEqual([
      { kind: 'paragraph', text: 'One line.' },
      { kind: 'paragraph', text: 'Two.' },
    ]);
  });

  it('reads a numbered list, a bulleted list and a table, each as a block of its own', () => {
    const text = [
      'The orderings:',
      '',
      '1. **First** — worker-1 stops;',
      '   worker-2 writes.',
      '2. **Second** — the same.',
      '',
      '- one',
      '- two',
      '',
      '| check | 1 after | 2 before |',
      '|---|---|---|',
      '| none | let through | taken |',
      '| guard | refused | taken |',
    ].join('\n');
    expect(blocks(text)).toEqual([
      { kind: 'paragraph', text: 'The orderings:' },
      { kind: 'list', ordered: true, items: ['**First** — worker-1 stops; worker-2 writes.', '**Second** — the same.'] },
      { kind: 'list', ordered: false, items: ['one', 'two'] },
      {
        kind: 'table',
        header: ['check', '1 after', '2 before'],
        rows: [
          ['none', 'let through', 'taken'],
          ['guard', 'refused', 'taken'],
        ],
      },
    ]);
  });

  it('finds **strong**, *emphasis* and `code`, and leaves the rest as text', () => {
    expect(inlinePieces('**No lock.** Run `SET k v NX` *now*')).toEqual([
      { kind: 'strong', text: 'No lock.' },
      { kind: 'text', text: ' Run ' },
      { kind: 'code', text: 'SET k v NX' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'now' },
    ]);
    expect(inlinePieces('a ** b')).toEqual([{ kind: 'text', text: 'a ** b' }]);
    expect(inlinePieces('2 * 3 * 4')).toEqual([{ kind: 'text', text: '2 * 3 * 4' }]);
  });

  it('reads every scenario explanation without leaving list or table marks in a paragraph', async () => {
    const { readdirSync, readFileSync, existsSync } = await import('node:fs');
    const root = new URL('../../../server/src/scenarios/', import.meta.url);
    const files = readdirSync(root)
      .map((d) => new URL(`${d}/explanation.md`, root))
      .filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      for (const b of blocks(readFileSync(file, 'utf8'))) {
        if (b.kind !== 'paragraph') continue;
        expect(b.text, String(file)).not.toMatch(/(^|\s)\|\s|\s\d+\.\s\*\*/);
      }
    }
  });
});
