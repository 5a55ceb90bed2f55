// The sentence for each way edited code's process ends, from what node and the kernel leave
// (texts as node 20 prints them); the hostile tests check the same words on real processes.
import { describe, expect, it } from 'vitest';
import { endedWords } from './endedWords.js';

const denied = (permission: string, resource: string): string =>
  `Error: Access to this API has been restricted\n    at Object.openSync (node:fs:573:18) {\n  code: 'ERR_ACCESS_DENIED',\n  permission: '${permission}',\n  resource: '${resource}'\n}`;
const STORES = [
  { host: '127.0.0.1', port: 6379 },
  { host: 'localhost', port: 5432 },
];

describe('the words for how edited code ended', () => {
  it('names each limit and refusal', () => {
    const cases: [Parameters<typeof endedWords>[0], string][] = [
      [
        { code: null, signal: 'SIGABRT', text: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory' },
        'your code ran out of memory (128 MB)',
      ],
      [
        { code: 1, signal: null, text: 'RangeError: Array buffer allocation failed' },
        'your code ran out of memory (its 2 GB of address space)',
      ],
      [{ code: null, signal: 'SIGXCPU', text: '' }, 'your code used up its 60 s of CPU'],
      [{ code: null, signal: 'SIGXFSZ', text: '' }, 'your code wrote a file larger than 64 MB'],
      [
        { code: 1, signal: null, text: denied('FileSystemRead', '/etc/passwd') },
        'your code was refused: reading /etc/passwd is not allowed (only its scratch folder)',
      ],
      [
        { code: 1, signal: null, text: denied('FileSystemWrite', '/srv/x') },
        'your code was refused: writing /srv/x is not allowed (only its scratch folder)',
      ],
      [{ code: 1, signal: null, text: denied('ChildProcess', '') }, 'your code was refused: starting a process is not allowed'],
      [{ code: 1, signal: null, text: denied('WorkerThreads', '') }, 'your code was refused: starting a worker thread is not allowed'],
      [{ code: 1, signal: null, text: 'Error: spawnSync sh EAGAIN' }, 'your code was refused: starting a process is not allowed'],
      [
        { code: 1, signal: null, text: 'Error: connect ECONNREFUSED 1.1.1.1:80' },
        "your code was refused a connection to 1.1.1.1:80: it may reach only the run's stores and services",
      ],
      [
        { code: 1, signal: null, text: 'ReplyError: NOPERM No permissions to access a key\n    at parseError' },
        'Redis refused your code: NOPERM No permissions to access a key',
      ],
      [
        { code: 1, signal: null, text: 'error: must be owner of schema run_0123456789' },
        'PostgreSQL refused your code: must be owner of schema run_0123456789',
      ],
    ];
    for (const [ending, words] of cases) expect(endedWords(ending, STORES)).toBe(words);
  });

  it("leaves a refused connection to the run's own store, and an ordinary failure, to the engine", () => {
    expect(endedWords({ code: 1, signal: null, text: 'Error: connect ECONNREFUSED 127.0.0.1:6379' }, STORES)).toBeNull();
    expect(endedWords({ code: 1, signal: null, text: 'Error: connect ECONNREFUSED ::1:5432' }, STORES)).toBeNull();
    expect(endedWords({ code: 1, signal: null, text: 'TypeError: x is not a function' }, STORES)).toBeNull();
    expect(endedWords({ code: 0, signal: null, text: '' }, STORES)).toBeNull();
  });
});
