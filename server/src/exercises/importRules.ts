// What an edited variant may import, and where each import goes once compiled. A variant
// imports its scenario's own modules, the kit and the scenarios' shared files by relative
// path, @racelab/shared, and a few node builtins; each is rewritten to the absolute file URL
// of the built module, so the edited code loads exactly as the variant it replaces.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtScript } from '../services/builtScript.js';

/** Node builtins every variant may use: none reaches the disk, a process or the network. */
export const ALLOWED_BUILTINS = ['node:crypto', 'node:timers/promises', 'node:timers', 'node:util', 'node:events', 'node:assert'];

/** The built `scenarios/` folder: every relative import of a variant lands in it. */
const SCENARIOS_DIST = builtScript(new URL('../scenarios/', import.meta.url));

/** The built @racelab/shared, by its real path: the module a worker already holds, not a second copy. */
const SHARED_URL = pathToFileURL(realpathSync(createRequire(import.meta.url).resolve('@racelab/shared'))).href;

/** Where an import goes, or why it may not be made. */
export type ImportTarget = { ok: true; url: string } | { ok: false; error: string };

/** The rules for one variant: its built file, and the builtins its own file imported (fs, for one that writes a file). */
export interface ImportRules {
  /** The built module of the variant the exercise starts from (dist/scenarios/<id>/variants/x.js). */
  variantFile: string;
  /** Builtins the variant's own file imports, allowed besides ALLOWED_BUILTINS. */
  ownBuiltins: string[];
}

const withNodePrefix = (spec: string): string => (spec.startsWith('node:') ? spec : `node:${spec}`);

/** The builtins a source imports, as `node:` names. */
export function builtinsIn(specifiers: string[]): string[] {
  return specifiers.map(withNodePrefix).filter(isBuiltin);
}

/** Where `spec` goes for a variant under these rules, or why it may not be imported. */
export function resolveImport(spec: string, rules: ImportRules): ImportTarget {
  if (spec === '@racelab/shared') return { ok: true, url: SHARED_URL };
  if (spec.startsWith('.')) return relativeImport(spec, rules);
  const builtin = withNodePrefix(spec);
  if (isBuiltin(builtin)) {
    if (ALLOWED_BUILTINS.includes(builtin) || rules.ownBuiltins.includes(builtin)) return { ok: true, url: builtin };
    return {
      ok: false,
      error: `'${spec}' may not be imported by an exercise: it reaches beyond the run (a process, the disk, the network or the engine); a variant may use ${[...ALLOWED_BUILTINS, ...rules.ownBuiltins].join(', ')}`,
    };
  }
  return {
    ok: false,
    error: `'${spec}' may not be imported by an exercise: import the scenario's own modules and the kit by relative path (as the variant does), @racelab/shared, or ${ALLOWED_BUILTINS.join(', ')}`,
  };
}

/** A relative import, resolved from the variant's own folder in the built tree. */
function relativeImport(spec: string, rules: ImportRules): ImportTarget {
  const target = resolve(dirname(rules.variantFile), spec);
  const scenarioFolder = relative(SCENARIOS_DIST, dirname(dirname(rules.variantFile))).split(sep)[0]!;
  const inside = relative(SCENARIOS_DIST, target).split(sep);
  // The scenario's own folder, the kit, or a file directly in scenarios/ (types.js, keyValue.js …).
  const allowed = !inside[0]!.startsWith('..') && (inside.length === 1 || inside[0] === scenarioFolder || inside[0] === 'kit');
  if (!allowed) {
    return {
      ok: false,
      error: `'${spec}' is outside what an exercise may import: its scenario's folder, scenarios/kit and scenarios/*.js`,
    };
  }
  if (!target.endsWith('.js') || !existsSync(target)) {
    return { ok: false, error: `'${spec}': no such module beside the variant (relative imports end in .js, as the variant's do)` };
  }
  return { ok: true, url: pathToFileURL(target).href };
}

const BUILTIN_NAMES = new Set(
  (await import('node:module')).builtinModules.flatMap((name) => (name.startsWith('node:') ? [name] : [`node:${name}`])),
);

function isBuiltin(spec: string): boolean {
  return BUILTIN_NAMES.has(spec) || BUILTIN_NAMES.has(spec.replace(/\/.*$/, ''));
}
