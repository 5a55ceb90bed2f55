// A choice parameter told by its options, each with what it does: the help the page shows
// says it option by option ("together: every container fires at once. late: …"), so each
// option is named once, and its label is its name in words ("in-turn": "in turn") unless
// it has a label of its own.
import type { ParamSpec } from '@racelab/shared';

/** What an option does, in a sentence (null: the help need not say), and its own label if its name will not do. */
type Option = string | null | { label: string; does: string | null };

/** `options`: each option's value and what it does; the first is the default. */
export function choiceSpec(name: string, label: string, options: Record<string, Option>): ParamSpec {
  const told = Object.entries(options).map(([value, option]) =>
    option !== null && typeof option === 'object' ? { value, ...option } : { value, label: value.replaceAll('-', ' '), does: option },
  );
  return {
    kind: 'choice',
    name,
    label,
    help: told.flatMap(({ value, does }) => (does === null ? [] : [`${value}: ${does}`])).join(' '),
    options: told.map(({ value, label }) => ({ value, label })),
    default: told[0]!.value,
  };
}
