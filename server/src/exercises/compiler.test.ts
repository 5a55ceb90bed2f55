// The compiler of edited code, without stores: a syntax error comes back with its line, an
// import an exercise may not make is refused with its line and why, a variant's own file
// compiles with every import pointed at the built module it names, and a builtin the starting
// variant itself imports (fs, for a variant that writes a file) stays allowed for its exercise.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BLIND_DEL, TOKEN_LUA } from '../testing/exerciseCode.js';
import { compileExercise, importsOf } from './compiler.js';
import { builtinsIn, type ImportRules } from './importRules.js';

const builtVariant = (path: string): string => fileURLToPath(new URL(`../../dist/scenarios/${path}`, import.meta.url));
const DUPLICATE_JOB: ImportRules = { variantFile: builtVariant('duplicate-job/variants/blindDel.js'), ownBuiltins: [] };

describe('compiling an edited variant', () => {
  it('compiles the starting variant, its imports pointed at the built modules', async () => {
    const compiled = await compileExercise(BLIND_DEL, DUPLICATE_JOB);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.code).toContain(`from "${new URL('../../dist/scenarios/types.js', import.meta.url).href}"`);
    expect(compiled.code).toContain(`from "${new URL('../../dist/scenarios/duplicate-job/nightlyJob.js', import.meta.url).href}"`);
    expect(compiled.code).not.toMatch(/from '\.\.?\//); // no relative import is left
  });

  it('keeps the solution’s node:crypto and the kit', async () => {
    const compiled = await compileExercise(TOKEN_LUA, DUPLICATE_JOB);
    expect(compiled.ok && compiled.code).toContain('from "node:crypto"');
    expect(compiled.ok && compiled.code).toContain('/dist/scenarios/kit/releaseIfMine.js"');
  });

  it('gives a syntax error with its line', async () => {
    const broken = BLIND_DEL.replace('const ok = await', 'const ok = await (');
    const compiled = await compileExercise(broken, DUPLICATE_JOB);
    const line = broken.split('\n').findIndex((l) => l.includes('await (')) + 1;
    expect(compiled).toMatchObject({ ok: false, errors: [{ line: expect.any(Number) as unknown }] });
    if (compiled.ok) return;
    expect(compiled.errors[0]!.line).toBeGreaterThanOrEqual(line);
    expect(compiled.errors[0]!.message).toMatch(/expected/);
  });

  it.each([
    ["import { exec } from 'node:child_process';", "exec('id');", 'node:child_process'],
    ["import { readFileSync } from 'fs';", "readFileSync('/etc/passwd');", 'fs'],
    ["import { connect } from 'node:net';", 'connect(6379);', 'node:net'],
    ["import { Worker } from 'node:worker_threads';", "new Worker('');", 'node:worker_threads'],
    ["import vm from 'node:vm';", "vm.runInThisContext('1');", 'node:vm'],
  ])('refuses %s with its line and why', async (line, use, name) => {
    const source = `${BLIND_DEL}\n${line}\n${use}\n`;
    const compiled = await compileExercise(source, DUPLICATE_JOB);
    expect(compiled).toEqual({
      ok: false,
      errors: [
        {
          line: source.split('\n').indexOf(line) + 1,
          message: expect.stringContaining(`'${name}' may not be imported by an exercise`) as unknown,
        },
      ],
    });
  });

  it('refuses an import from outside the scenario, its kit and scenarios/*.js, and an import() of a computed name', async () => {
    const outside = await compileExercise(`import { Run } from '../../../runs/run.js';\nconsole.log(Run);\n`, DUPLICATE_JOB);
    expect(outside).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: expect.stringContaining('outside what an exercise may import') as unknown }],
    });
    const computed = await compileExercise(`const name = 'node:' + 'child_process';\nawait import(name);\n`, DUPLICATE_JOB);
    expect(computed).toMatchObject({ ok: false, errors: [{ line: 2, message: 'import() must name its module as a string in quotes' }] });
  });

  it('lets a type-only import through: the transpile erases it', async () => {
    const compiled = await compileExercise(`import type { Redis } from 'ioredis';\nexport const x: Redis | null = null;\n`, DUPLICATE_JOB);
    expect(compiled.ok).toBe(true);
  });

  it('allows the builtins the starting variant imports itself, for its exercise only', async () => {
    const file = fileURLToPath(new URL('../scenarios/unfenceable-target/variants/fileWithToken.ts', import.meta.url));
    const own = builtinsIn(await importsOf(readFileSync(file, 'utf8')));
    expect(own).toContain('node:fs/promises');
    const rules: ImportRules = { variantFile: builtVariant('unfenceable-target/variants/fileWithToken.js'), ownBuiltins: own };
    expect((await compileExercise(readFileSync(file, 'utf8'), rules)).ok).toBe(true);
  });
});
