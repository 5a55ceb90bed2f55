// Throws generated frames, malformed and valid mixed, at a running server's WebSocket and
// checks that each gets the answer its kind calls for. Used by the fuzz test (10,000
// frames in `npm test`, fuzzer.test.ts) and by `npm run fuzz` (100,000 and more, fuzz.ts).
//
// Each connection keeps one frame in flight and sends at most `perSecond` a second, under
// the server's flood limit, so every frame reaches the parser rather than the "slow
// down" answer (a flood has its own test); many connections side by side make it fast.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebSocket } from 'ws';
import { LiveFaultAction, parseServerMessage, seededRandom, type ScenarioManifest, type ServerMessage } from '@racelab/shared';

/** What a frame of each kind must get back. */
type Expect = 'error' | 'run-rejected' | 'run-unknown' | 'start';

interface Frame {
  kind: string;
  data: string | Buffer;
  binary?: boolean;
  expect: Expect;
}

const NASTY_STRINGS = [
  '',
  ' ',
  "'; drop schema public cascade; --",
  "redis.call('FLUSHALL')",
  'racelab:*',
  '../../../../etc/passwd',
  '__proto__',
  'constructor',
  '\u0000',
  '\ud83d\ude00',
  '\u202e',
  'x'.repeat(101),
  'NaN',
  '-1',
  '1e309',
  '0x10',
  'true',
];

export function frameGenerator(seed: number, catalog: ScenarioManifest[]): () => Frame {
  const random = seededRandom(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  /** A short string (≤ 100 characters, so it passes the protocol's length checks and reaches the catalog's). */
  const name = (max = 20): string => str(max).slice(0, 90);
  const str = (max = 20): string => {
    if (random() < 0.3) return pick(NASTY_STRINGS);
    let s = '';
    const n = int(max);
    for (let i = 0; i < n; i++) s += String.fromCharCode(random() < 0.9 ? 32 + int(95) : int(0xd7ff));
    return s;
  };
  const jsonValue = (depth: number): unknown => {
    const r = random();
    if (depth <= 0 || r < 0.3) return pick([null, true, false, int(1e6) - 5e5, random() * 1e12, str(), -0, 1e308]);
    if (r < 0.6) return Array.from({ length: int(5) }, () => jsonValue(depth - 1));
    const o: Record<string, unknown> = {};
    for (let i = int(5); i > 0; i--) o[`k${str(8)}`] = jsonValue(depth - 1); // never a 'type' key
    return o;
  };
  const scenario = (): ScenarioManifest => pick(catalog);
  const validStart = (): Record<string, unknown> => {
    const m = scenario();
    const v = pick(m.variants.filter((v) => !v.unavailable)); // a valid start is one this server can run
    return { type: 'start-run', requestId: `f${int(1e9)}`, scenario: m.id, variant: v.id, params: {} };
  };
  const kinds: Array<[number, string, () => Frame]> = [
    [8, 'garbage', () => ({ kind: 'garbage', data: str(200) + pick(['', '{', '[', '"']), expect: 'error' })],
    [8, 'random-json', () => ({ kind: 'random-json', data: JSON.stringify(jsonValue(4)) ?? 'null', expect: 'error' })],
    [6, 'unknown-type', () => ({ kind: 'unknown-type', data: JSON.stringify({ type: str(12) + 'x', runId: str() }), expect: 'error' })],
    [
      6,
      'missing-field',
      () => {
        const m = validStart();
        delete m[pick(['requestId', 'scenario', 'variant'])];
        return { kind: 'missing-field', data: JSON.stringify(m), expect: 'error' };
      },
    ],
    [
      8,
      'wrong-type',
      () => {
        const m = validStart();
        const field = pick(['requestId', 'scenario', 'variant', 'params', 'speed', 'faults']);
        m[field] = pick([5, null, true, [1], 'x'.repeat(101), 9e9, ...(field === 'params' ? [] : [{ a: 1 }])]);
        return { kind: 'wrong-type', data: JSON.stringify(m), expect: 'error' };
      },
    ],
    [
      5,
      'unknown-field',
      () => ({
        kind: 'unknown-field',
        data: JSON.stringify({ ...validStart(), [pick(['sql', 'lua', 'key', 'path', 'schema', 'keyPrefix', 'command'])]: str() }),
        expect: 'error',
      }),
    ],
    [
      8,
      'bad-param',
      () => {
        const m = scenario();
        const spec = pick(m.params);
        const value = pick([
          spec.kind === 'int' ? spec.max + 1 + int(1000) : 'nope',
          spec.kind === 'int' ? spec.min - 1 - int(1000) : -1,
          1.5,
          name(30) + '#',
          [],
          '',
        ]);
        return {
          kind: 'bad-param',
          data: JSON.stringify({ ...validStart(), scenario: m.id, variant: m.variants[0]!.id, params: { [spec.name]: value } }),
          expect: 'run-rejected',
        };
      },
    ],
    [
      4,
      'unknown-param',
      () => ({
        kind: 'unknown-param',
        data: JSON.stringify({ ...validStart(), params: { [`zz${name(10)}`]: 1 } }),
        expect: 'run-rejected',
      }),
    ],
    [
      4,
      'unknown-scenario',
      () => ({ kind: 'unknown-scenario', data: JSON.stringify({ ...validStart(), scenario: `no-${name(10)}` }), expect: 'run-rejected' }),
    ],
    [
      4,
      'unknown-variant',
      () => ({ kind: 'unknown-variant', data: JSON.stringify({ ...validStart(), variant: `no-${name(10)}` }), expect: 'run-rejected' }),
    ],
    [
      3,
      'bad-fault',
      () => ({
        kind: 'bad-fault',
        data: JSON.stringify({ ...validStart(), faults: [{ checkpoint: `no-${name(8)}`, target: 'first', action: 'kill' }] }),
        expect: 'run-rejected',
      }),
    ],
    [
      3,
      'bad-speed',
      () => ({ kind: 'bad-speed', data: JSON.stringify({ ...validStart(), speed: pick([0, 0.1, 3, -1, 1e9]) }), expect: 'error' }),
    ],
    [
      8,
      'subscribe-unknown',
      () => ({
        kind: 'subscribe-unknown',
        data: JSON.stringify({ type: 'subscribe', runId: `ffff${int(1e9).toString(16)}`, afterSeq: int(100) - 1 }),
        expect: 'run-unknown',
      }),
    ],
    [
      5,
      'cancel-unknown',
      () => ({ kind: 'cancel-unknown', data: JSON.stringify({ type: 'cancel-run', runId: name(10) + 'z' }), expect: 'error' }),
    ],
    [
      5,
      'fault-unknown',
      () => ({
        kind: 'fault-unknown',
        data: JSON.stringify({ type: 'fault', runId: `z${int(1e9)}`, workerId: 'worker-1', action: pick(LiveFaultAction.options) }),
        expect: 'error',
      }),
    ],
    [
      5,
      'invalid-utf8',
      () => {
        const good = Buffer.from(JSON.stringify(validStart()));
        const bad = Buffer.from(pick([[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]]));
        const at = int(good.length);
        return { kind: 'invalid-utf8', data: Buffer.concat([good.subarray(0, at), bad, good.subarray(at)]), expect: 'error' };
      },
    ],
    [
      4,
      'binary',
      () => ({ kind: 'binary', data: Buffer.from(Array.from({ length: int(64) }, () => int(256))), binary: true, expect: 'error' }),
    ],
    [
      2,
      'deep-json',
      () => {
        const depth = 1000 + int(20_000);
        return {
          kind: 'deep-json',
          data: pick([`${'['.repeat(depth)}${']'.repeat(depth)}`, `{"type":"subscribe","runId":${'['.repeat(depth)}${']'.repeat(depth)}}`]),
          expect: 'error',
        };
      },
    ],
    [
      0.3,
      'oversized',
      () => ({ kind: 'oversized', data: `{"type":"subscribe","runId":"${'a'.repeat(65_536 + int(4096))}"}`, expect: 'error' }),
    ],
    [0.05, 'valid-start', () => ({ kind: 'valid-start', data: JSON.stringify(validStart()), expect: 'start' })],
  ];
  const total = kinds.reduce((n, [w]) => n + w, 0);
  return () => {
    let r = random() * total;
    for (const [weight, , make] of kinds) {
      r -= weight;
      if (r < 0) return make();
    }
    return kinds[0]![2]();
  };
}

/** Forces a full garbage collection, for memory measurements. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export interface FuzzOptions {
  url: string;
  frames: number;
  catalog: ScenarioManifest[];
  connections?: number;
  /** Per connection; under the server's flood limit (100 a second). */
  perSecond?: number;
  seed?: number;
  /** Called every `frames / 10` frames (with the number answered so far). */
  checkpoint?: (answered: number) => void | Promise<void>;
}

export interface FuzzReport {
  frames: number;
  answered: number;
  /** Frames whose answer was not what their kind calls for, with what came back (the first few). */
  wrong: Array<{ kind: string; got: string }>;
  wrongCount: number;
  slowedDown: number;
  byKind: Record<string, number>;
  runsAccepted: string[];
  ms: number;
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const connections = options.connections ?? 40;
  const interval = 1000 / (options.perSecond ?? 80);
  const next = frameGenerator(options.seed ?? 1, options.catalog);
  const report: FuzzReport = { frames: 0, answered: 0, wrong: [], wrongCount: 0, slowedDown: 0, byKind: {}, runsAccepted: [], ms: 0 };
  const started = Date.now();
  const every = Math.max(1, Math.floor(options.frames / 10));
  let issued = 0;
  let nextCheckpoint = every;
  let checkpointing: Promise<void> = Promise.resolve();

  const worker = async (): Promise<void> => {
    const socket = new WebSocket(options.url);
    const answers: ServerMessage[] = [];
    let wake: (() => void) | undefined;
    socket.on('message', (data) => {
      const parsed = parseServerMessage((data as Buffer).toString()); // a client socket's default binaryType: one Buffer a message
      if (!parsed.ok) {
        // The shared schema is the page's: a message it refuses is a wrong answer, whatever the frame.
        report.wrongCount++;
        if (report.wrong.length < 10) report.wrong.push({ kind: 'server message', got: parsed.error.slice(0, 200) });
        return;
      }
      const message = parsed.message;
      if (message.type === 'run-event' || message.type === 'run-events' || message.type === 'hello') return; // streams of accepted runs
      answers.push(message);
      wake?.();
    });
    socket.on('close', () => wake?.());
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const answer = (): Promise<ServerMessage> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('a frame got no answer within 30 s')), 30_000);
        const look = (): void => {
          if (answers.length > 0) {
            clearTimeout(timer);
            wake = undefined;
            resolve(answers.shift()!);
          } else if (socket.readyState !== WebSocket.OPEN) {
            clearTimeout(timer);
            reject(new Error('the server closed a fuzz connection'));
          }
        };
        wake = look;
        look();
      });
    let lastSend = 0;
    while (issued < options.frames) {
      issued++;
      const frame = next();
      const wait = lastSend + interval - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastSend = performance.now();
      socket.send(frame.data, { binary: frame.binary ?? false });
      report.frames++;
      report.byKind[frame.kind] = (report.byKind[frame.kind] ?? 0) + 1;
      const got = await answer();
      report.answered++;
      const ok =
        frame.expect === 'start'
          ? got.type === 'run-accepted' || (got.type === 'run-rejected' && got.error.startsWith('busy: '))
          : got.type === frame.expect;
      if (got.type === 'error' && got.error === 'too many messages: slow down') report.slowedDown++;
      if (got.type === 'run-accepted') report.runsAccepted.push(got.runId);
      if (!ok) {
        report.wrongCount++;
        if (report.wrong.length < 10) report.wrong.push({ kind: frame.kind, got: JSON.stringify(got).slice(0, 200) });
      }
      if (report.answered >= nextCheckpoint && options.checkpoint) {
        nextCheckpoint += every;
        const at = report.answered;
        checkpointing = checkpointing.then(() => options.checkpoint!(at));
      }
    }
    socket.close();
  };
  await Promise.all(Array.from({ length: connections }, () => worker()));
  await checkpointing;
  report.ms = Date.now() - started;
  return report;
}
