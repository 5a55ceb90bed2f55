// A lane renders again for every batch of events, and a live lane holds hundreds of
// shapes: a shape renders again only when what it shows changed. Its props are compared
// two levels deep (a placed mark's own fields, a scale's numbers, a cluster's words), and
// anything deeper by reference: two props are the same only when that is certain.
import { memo, type FunctionComponent } from 'react';

function sameLeaf(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((x, i) => Object.is(x, b[i]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (sameLeaf(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameLeaf((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function sameProps<P extends object>(a: P, b: P): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A timeline shape that renders again only when its props differ (sameProps). */
export function shape<P extends object>(component: FunctionComponent<P>) {
  return memo(component, sameProps);
}
