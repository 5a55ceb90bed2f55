// duplicate-job's exercise code as a learner might send it, made from the variants' own files:
// the broken start, the solution, a half-fix that a near-miss names, and a fix that skips the
// stall its scenario is about. Shared by the exercise tests of the engine, the endpoints and the CLI.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const variantFile = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../scenarios/duplicate-job/variants/${name}.ts`, import.meta.url)), 'utf8');

/** Replaces `from` in `code`, and fails loudly when the file no longer has it. */
function edit(code: string, from: string, to: string): string {
  if (!code.includes(from)) throw new Error(`the variant no longer has: ${from}`);
  return code.replace(from, to);
}

/** blind-del, as the editor first shows it. */
export const BLIND_DEL = variantFile('blindDel');

/** token-lua, the reference solution. */
export const TOKEN_LUA = variantFile('tokenLua');

/** blind-del with a unique token but still a plain DEL release: the plain-DEL near-miss. */
export const PLAIN_DEL_HALF_FIX = edit(
  edit(
    BLIND_DEL,
    "import { defineVariant } from '../../types.js';",
    "import { randomUUID } from 'node:crypto';\nimport { defineVariant } from '../../types.js';",
  ),
  "const ok = await job.redis.set(key, 'locked', 'PX', job.leaseMs, 'NX'); // every holder writes the same value",
  "const ok = await job.redis.set(key, randomUUID(), 'PX', job.leaseMs, 'NX');",
);

/** token-lua that writes the report and its e-mail itself, never through the job's work: it skips the checkpoint 'working'. */
export const STALL_REMOVED = edit(
  TOKEN_LUA,
  'await job.sendReport();',
  `const report = await job.pg.query<{ id: number }>('insert into reports (worker, entity, report_date) values ($1, $2, $3) returning id', [job.workerId, job.entity, job.date]);
      await job.pg.query('insert into emails (worker, entity, report_date, report_id) values ($1, $2, $3, $4)', [job.workerId, job.entity, job.date, report.rows[0]!.id]);`,
);

/** token-lua that first says what its process has: its environment's names and whether it may read /etc/hostname. */
export const TELLS_ITS_PROCESS = edit(
  TOKEN_LUA,
  'const token = tokenOf(job);',
  `const token = tokenOf(job);
    job.emit({ type: 'note', text: \`env \${Object.keys(process.env).sort().join(',')}; reads /etc/hostname: \${String(process.permission?.has('fs.read', '/etc/hostname'))}\` });`,
);

/** token-lua that fills its heap once it runs: arrays of numbers, kept, until the engine gives up. */
export const HEAP_HOG = edit(
  TOKEN_LUA,
  'const token = tokenOf(job);',
  `const token = tokenOf(job);
    const kept: number[][] = [];
    for (;;) kept.push(new Array<number>(100_000).fill(kept.length));`,
);
