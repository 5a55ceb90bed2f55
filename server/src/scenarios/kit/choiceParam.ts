// A choice parameter told by its options, each with what it does: the help the page shows
// says it option by option ("together: every container fires at once. late: …"), so each
// option is named once, and its label is its name in words ("in-turn": "in turn").
import type { ParamSpec } from '@racelab/shared';

/** `options`: each option's value and what it does, in a sentence (null: the help need not say); the first is the default. */
export function choiceSpec(name: string, label: string, options: Record<string, string | null>): ParamSpec {
  const values = Object.keys(options);
  return {
    kind: 'choice',
    name,
    label,
    help: Object.entries(options)
      .flatMap(([value, does]) => (does === null ? [] : [`${value}: ${does}`]))
      .join(' '),
    options: values.map((value) => ({ value, label: value.replaceAll('-', ' ') })),
    default: values[0]!,
  };
}
