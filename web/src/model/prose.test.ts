import { describe, expect, it } from 'vitest';
import { inlinePieces, paragraphs } from './prose.js';

describe('prose', () => {
  it('splits paragraphs on blank lines and joins wrapped lines', () => {
    expect(paragraphs('One\nline.\n\n  Two.  \n\n\n')).toEqual(['One line.', 'Two.']);
  });

  it('finds **strong** and `code`, and leaves the rest as text', () => {
    expect(inlinePieces('**No lock.** Run `SET k v NX` now')).toEqual([
      { kind: 'strong', text: 'No lock.' },
      { kind: 'text', text: ' Run ' },
      { kind: 'code', text: 'SET k v NX' },
      { kind: 'text', text: ' now' },
    ]);
    expect(inlinePieces('a ** b')).toEqual([{ kind: 'text', text: 'a ** b' }]);
  });
});
