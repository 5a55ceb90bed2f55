// Why an edited code's process ended or was refused, in one sentence a learner can act on,
// read from what the process left: its exit code or signal, and its stderr (or a worker's
// error message) as node and the kernel word it. null when nothing here explains the end
// (the run's deadline is the engine's own to name).
import type { Endpoint } from './exerciseFirewall.js';
import { LIMITS } from './processLimits.js';

/** What a process left when it ended. */
export interface Ending {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Its stderr, or the message of the error it reported. */
  text: string;
}

/** The heap limit the engine gives edited code, in MB (`--max-old-space-size`). */
export const HEAP_MB = 128;

const WHAT_IS_REFUSED: Record<string, string> = {
  ChildProcess: 'starting a process is not allowed',
  WorkerThreads: 'starting a worker thread is not allowed',
  InspectorProtocol: 'the inspector is not allowed',
  WASI: 'WASI is not allowed',
};

/** The sentence for how edited code ended, or null when its end was not a refusal or a limit. */
export function endedWords({ code, signal, text }: Ending, stores: Endpoint[] = []): string | null {
  if (/JavaScript heap out of memory|Reached heap limit/.test(text)) return `your code ran out of memory (${HEAP_MB} MB)`;
  if (
    /Array buffer allocation failed|Cannot allocate Wasm memory|Cannot allocate memory|ENOMEM|std::bad_alloc|Fatal process out of memory/.test(
      text,
    )
  ) {
    return `your code ran out of memory (its ${LIMITS.addressSpaceBytes / 1024 ** 3} GB of address space)`;
  }
  if (signal === 'SIGXCPU') return `your code used up its ${LIMITS.cpuSeconds} s of CPU`;
  if (signal === 'SIGXFSZ') return `your code wrote a file larger than ${LIMITS.fileBytes / 1024 ** 2} MB`;
  if (/ERR_ACCESS_DENIED|Access to this API has been restricted/.test(text)) {
    const permission = /permission: '(\w+)'/.exec(text)?.[1] ?? '';
    const resource = /resource: '([^']*)'/.exec(text)?.[1] ?? '';
    if (permission === 'FileSystemRead')
      return `your code was refused: reading ${resource || 'a file'} is not allowed (only its scratch folder)`;
    if (permission === 'FileSystemWrite')
      return `your code was refused: writing ${resource || 'a file'} is not allowed (only its scratch folder)`;
    return `your code was refused: ${WHAT_IS_REFUSED[permission] ?? `${permission || 'that'} is not allowed`}`;
  }
  if (/spawn(Sync)? \S+ EAGAIN|\bfork\b.*EAGAIN|Resource temporarily unavailable/.test(text)) {
    return 'your code was refused: starting a process is not allowed';
  }
  const refused = /connect (ECONNREFUSED|EPERM) (\[?[\d.:a-f]+\]?):(\d+)/.exec(text);
  if (refused && !stores.some((s) => s.port === Number(refused[3]) && sameHost(s.host, refused[2]!))) {
    return `your code was refused a connection to ${refused[2]}:${refused[3]}: it may reach only the run's stores and services`;
  }
  if (/NOPERM/.test(text)) return `Redis refused your code: ${firstLine(text, /NOPERM.*/)}`;
  if (/must be owner of|permission denied for/.test(text))
    return `PostgreSQL refused your code: ${firstLine(text, /(must be owner of|permission denied for).*/)}`;
  if (code === null && signal === 'SIGABRT') return 'your code crashed node (SIGABRT)';
  return null;
}

const sameHost = (a: string, b: string): boolean => {
  const bare = (h: string): string => h.replace(/^\[(.*)\]$/, '$1');
  const loopback = (h: string): boolean => ['localhost', '127.0.0.1', '::1'].includes(bare(h));
  return bare(a) === bare(b) || (loopback(a) && loopback(b));
};

const firstLine = (text: string, pattern: RegExp): string => (pattern.exec(text)?.[0] ?? text).trim();
