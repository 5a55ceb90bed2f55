// Ground truth: the report a reader gets, read from the target itself — the pointer row
// and the file it names, the versioned key in Redis, or the plain file — never from what
// the workers said they uploaded.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunStores } from '../types.js';
import { REPORT_FILE, REPORT_KEY } from './keys.js';

export interface Report {
  writer: string;
  fence: number;
  /** Where it was read: the file, the key, or the pointer and the file it names. */
  from: string;
}

function parse(text: string | null, from: string): Report | null {
  if (text === null) return null;
  const fence = /^fence: (\d+)$/m.exec(text)?.[1];
  const writer = /^writer: (\S+)$/m.exec(text)?.[1];
  return fence && writer ? { writer, fence: Number(fence), from } : null;
}

const readText = (file: string): Promise<string | null> => readFile(file, 'utf8').catch(() => null);

/** The report a reader gets now, from whichever target the variant uploads to; null before any upload. */
export async function publishedReport(stores: RunStores, dir: string): Promise<Report | null> {
  const pointer = await stores.sql<{ file: string | null }>('select file from published where id = 1');
  const file = pointer.rows[0]?.file;
  if (file) return parse(await readText(path.join(dir, file)), `published → ${file}`);
  const key = await stores.redis.get(stores.key(REPORT_KEY));
  if (key !== null) return parse(key, `key ${REPORT_KEY}`);
  return parse(await readText(path.join(dir, REPORT_FILE)), REPORT_FILE);
}

/** The uploads kept under names of their own (fenced-pointer), in name order. */
export async function uploadsKept(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return names.filter((n) => /^report-fence-\d+\.txt$/.test(n)).sort();
}
