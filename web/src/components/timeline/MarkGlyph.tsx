// A fact at an instant: a write, a skip, a death, a blind delete (major, with a glyph and a
// caption) or a small tick (job fired, checkpoint, release, exit, note).
import type { CSSProperties } from 'react';
import type { PlacedMark } from '../../model/layout.js';
import { MARK_ICONS } from '../../model/icons.js';
import { Icon } from '../icons/Icon.js';
import { Shape } from './Shape.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

export const MarkGlyph = shape(function MarkGlyph({ placed }: { placed: PlacedMark }) {
  const { mark, x, row, flip: flipped } = placed;
  const tip = useTip({ title: mark.label, lines: mark.details });
  const text = mark.major ? mark.caption : null;
  // Near the right edge the caption goes to the left of the glyph.
  const flip = text !== null && flipped;
  return (
    <Shape
      className={`mark ${mark.kind} ${mark.major ? 'major' : 'minor'}${flip ? ' flip' : ''}`}
      // A major mark's row is placed by the stylesheet (timeline.css, present.css).
      style={{
        ...(flip ? { right: `${100 - x}%` } : { left: `${x}%` }),
        ...(mark.major ? ({ '--row': row } as CSSProperties) : {}),
      }}
      enter="pop"
      data-mark={mark.id}
      {...tip}
    >
      <span className="glyph" aria-hidden="true">
        <Icon name={MARK_ICONS[mark.kind]} />
      </span>
      {text && (
        <span className="caption" aria-hidden="true">
          {text}
        </span>
      )}
    </Shape>
  );
});
