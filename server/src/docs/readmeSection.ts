// A generated section of the README: the text between a start and an end marker, written
// anew by `npm run docs` and compared by a test, so a hand edit or a stale table shows.

/** A section's markers, as they stand in the README. */
export interface SectionMarkers {
  /** What the section holds, for the error when its markers are missing. */
  name: string;
  start: string;
  end: string;
}

/** The README with the section between the markers replaced by `body`; throws when they are missing. */
export function withSection(readme: string, markers: SectionMarkers, body: string): string {
  const start = readme.indexOf(markers.start);
  const end = readme.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`the README has no ${markers.name} section (its markers are missing)`);
  return `${readme.slice(0, start + markers.start.length)}\n${body}\n${readme.slice(end)}`;
}

/** A table cell: a pipe would end the cell, a newline the row. */
export const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
