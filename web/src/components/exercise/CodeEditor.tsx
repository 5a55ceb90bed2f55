// The exercise's editor: CodeMirror 6 with TypeScript highlighting, in the exercise's own
// chunk (never in the page's main bundle). Tab indents; Escape, then Tab, moves the focus on
// (CodeMirror's way out, so the editor never traps the keyboard). Lines the compiler named
// are marked. The text is the editor's own: `value` is taken again only when it differs
// (a reset, a solution put in), so typing never makes the editor start over.
import { indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap, type DecorationSet } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

/** Token colours from the page's theme (styles/exercise.css): each reads at 4.5:1 on its editor's background. */
const themeColours = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword], color: 'var(--syn-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp], color: 'var(--syn-string)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--syn-number)' },
  { tag: [t.typeName, t.className, t.namespace], color: 'var(--syn-type)' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: 'var(--syn-function)' },
  { tag: [t.propertyName, t.definition(t.propertyName)], color: 'var(--syn-property)' },
  { tag: t.invalid, color: 'var(--broken)' },
]);

/** Replaces the marked lines (1-based). */
const markLines = StateEffect.define<readonly number[]>();

const errorLine = Decoration.line({ class: 'cm-exercise-error', attributes: { title: 'the compiler named this line' } });

const markedLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(markLines)) continue;
      const builder = new RangeSetBuilder<Decoration>();
      const lines = [...new Set(effect.value)].filter((n) => n >= 1 && n <= tr.state.doc.lines).sort((a, b) => a - b);
      for (const n of lines) builder.add(tr.state.doc.line(n).from, tr.state.doc.line(n).from, errorLine);
      next = builder.finish();
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface CodeEditorProps {
  value: string;
  onChange(code: string): void;
  /** The editor's accessible name. */
  label: string;
  /** The id of the text that says how to leave the editor with the keyboard. */
  describedBy: string;
  /** Lines to mark as the compiler's (1-based). */
  errorLines: readonly number[];
  /** Moves the cursor to this line and focuses the editor when it changes (a click on a compile error). */
  goTo: { line: number } | null;
}

export function CodeEditor({ value, onChange, label, describedBy, errorLines, goTo }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          syntaxHighlighting(themeColours),
          keymap.of([indentWithTab]),
          javascript({ typescript: true }),
          markedLines,
          // A tab stop axe and screen readers count as one (contenteditable alone is not reported as focusable).
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-describedby': describedBy, tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; value, label and marks reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: markLines.of(errorLines) });
  }, [errorLines]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !goTo || goTo.line > editor.state.doc.lines) return;
    const line = editor.state.doc.line(goTo.line);
    editor.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) });
    editor.focus();
  }, [goTo]);

  return <div className="exercise-editor" ref={host} />;
}

export default CodeEditor;
