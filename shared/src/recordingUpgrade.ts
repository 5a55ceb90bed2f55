// Recordings of an older version of the format, brought up to the current one as they are
// opened, so a file someone saved keeps opening. Version 1 wrote where a staged fault struck
// only in its words ("node-4 from worker-2"); version 2 carries that as fields (node, peer,
// worker, slowdown). The words of version 1 came from a fixed set of forms, one per kind of
// fault: they are read here once, into the fields, and nothing else ever reads them.

type Json = Record<string, unknown>;

/** Where a version-1 fault struck, as version 2's fields. */
interface FaultPlace {
  node: string | null;
  peer: string | null;
  worker: string | null;
  slowdown: { latencyMs: number; lossPercent: number } | null;
}

const nowhere: FaultPlace = { node: null, peer: null, worker: null, slowdown: null };

/** The forms version 1's server wrote, by kind of fault: each gives the fields its words hold. */
const V1_FORMS: Record<string, Array<[RegExp, (m: RegExpMatchArray) => Partial<FaultPlace>]>> = {
  'clock-skew': [[/^(\S+)'s clock [+-]?\d+ ms$/, (m) => ({ worker: m[1]! })]],
  'clock-jump': [[/^(\S+) \+\d+ ms$/, (m) => ({ node: m[1]! })]],
  'slow-link': [[/^(.+) → (.+)$/, (m) => ({ node: m[1]!, peer: m[2]! })]],
  partition: [
    [/^(\S+)'s link to every host, /, (m) => ({ worker: m[1]! })],
    [/^(\S+) ↔ (\S+)$/, (m) => ({ worker: m[1]!, node: m[2]! })],
  ],
  'partition-healed': [[/^(\S+)'s link to every host, /, (m) => ({ worker: m[1]! })]],
  isolation: [[/^(\S+) from (\S+)$/, (m) => ({ node: m[1]!, worker: m[2]! })]],
  rejoin: [[/^(\S+) to (\S+)$/, (m) => ({ node: m[1]!, worker: m[2]! })]],
  slowdown: [
    [
      /^(\S+) \+(\d+(?:\.\d+)?) ms(?:, (\d+(?:\.\d+)?)% lost)? for (\S+)$/,
      (m) => ({ node: m[1]!, worker: m[4]!, slowdown: { latencyMs: Number(m[2]), lossPercent: Number(m[3] ?? 0) } }),
    ],
  ],
  'slowdown-ended': [[/^(\S+) at full speed for (\S+)$/, (m) => ({ node: m[1]!, worker: m[2]! })]],
};

/** Where a version-1 staged fault struck, read from its words; all null for words of no known form. */
export function faultPlaceOfV1(fault: string, target: string): FaultPlace {
  for (const [form, fields] of V1_FORMS[fault] ?? []) {
    const m = target.match(form);
    if (m) return { ...nowhere, ...fields(m) };
  }
  return nowhere;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A parsed recording file brought up to version 2 when it is a version-1 one (its staged
 * faults given their fields); anything else is returned as it is, for the schema to judge.
 */
export function upgradeRecording(json: unknown): unknown {
  if (!isObject(json) || json.version !== 1 || !Array.isArray(json.events)) return json;
  const events = json.events.map((event: unknown) =>
    isObject(event) && event.type === 'fault-staged' && !('node' in event) && typeof event.target === 'string'
      ? { ...event, ...faultPlaceOfV1(String(event.fault), event.target) }
      : event,
  );
  return { ...json, version: 2, events };
}
