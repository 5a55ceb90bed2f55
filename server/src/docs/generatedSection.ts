// A generated section of a document (the README, a page of docs/): the text between a start
// and an end marker, written anew by `npm run docs` and compared by a test, so a hand edit or
// a stale table shows.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A section's markers, as they stand in the document that holds them. */
export interface SectionMarkers {
  /** What the section holds, for the error when its markers are missing. */
  name: string;
  /** The document that holds it, from the repository's root: "README.md", "docs/FIGURES.md". */
  file: string;
  start: string;
  end: string;
}

/** The full path of a document, from the repository's root. */
export const documentPath = (file: string): string => fileURLToPath(new URL(`../../../${file}`, import.meta.url));

/** The document that holds the section, as it stands. */
export const readDocument = (markers: SectionMarkers): string => readFileSync(documentPath(markers.file), 'utf8');

/** The document with the section between the markers replaced by `body`; throws when they are missing. */
export function withSection(document: string, markers: SectionMarkers, body: string): string {
  const start = document.indexOf(markers.start);
  const end = document.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`${markers.file} has no ${markers.name} section (its markers are missing)`);
  return `${document.slice(0, start + markers.start.length)}\n${body}\n${document.slice(end)}`;
}

/** A table cell: a pipe would end the cell, a newline the row. */
export const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
