// The instants of a worker's lane, in words: what a tooltip and a screen reader say.
import { lostConnectionWords, storeLostBy, type RunEvent } from '@racelab/shared';
import type { Lease } from './leases.js';
import { oldClockNote, type ClockSkew } from './oldEventForms.js';
import { formatMs } from './timeScale.js';

export type MarkKind =
  | 'write-accepted'
  | 'write-rejected'
  | 'skip'
  | 'death'
  | 'blind-delete'
  | 'release'
  | 'exit'
  | 'fired'
  | 'checkpoint'
  | 'note'
  | 'clock'
  | 'read'
  | 'call-ok'
  | 'call-failed'
  | 'retry';

export interface Mark {
  id: string;
  kind: MarkKind;
  atMs: number;
  /** A fence number "#2" or a signal, when the fact has one. */
  tag: string | null;
  /** Short text drawn beside a major mark's glyph, e.g. "email #2". */
  caption: string | null;
  /** Full accessible name, e.g. "worker-1 write to email accepted at 131 ms". */
  label: string;
  details: string[];
  /** Major marks are drawn large in the middle of the lane; minor ones as small ticks. */
  major: boolean;
}

const at = (ms: number) => `at ${formatMs(ms)}`;
const fenceTag = (fence: number | undefined) => (fence === undefined ? null : `#${fence}`);
const fenceWords = (fence: number | undefined) => (fence === undefined ? '' : ` with fence ${fence}`);

/** "stock = 7" when the value is short enough to read at a glance, else just the target. */
export function writeWords(target: string, value: string | number): string {
  return String(value).length <= 10 ? `${target} = ${value}` : target;
}

/** "1000 ms behind node-1": a worker's clock against its reference's. */
function skewWords({ offsetMs, reference }: ClockSkew): string {
  return offsetMs === 0 ? `in step with ${reference}` : `${Math.abs(offsetMs)} ms ${offsetMs < 0 ? 'behind' : 'ahead of'} ${reference}`;
}

/** The mark of a worker's own clock, drawn large: the clock is what the scenario is about. */
function clockMark(w: string, atMs: number, skew: ClockSkew): Omit<Mark, 'id' | 'atMs'> {
  const how = skew.mechanism ?? null;
  return {
    kind: 'clock',
    major: true,
    tag: null,
    caption: `clock ${skewWords(skew)}`,
    label: `${w}'s clock is ${skewWords(skew)}${how ? ` (${how})` : ''} ${at(atMs)}`,
    details: how ? [`clock: ${how}`] : [],
  };
}

/** A worker's death by a signal, drawn large: "killed by SIGKILL" (the kill itself) or "died by SIGKILL" (its exit). */
function deathMark(w: string, atMs: number, signal: string, how: 'killed by' | 'died by'): Omit<Mark, 'id' | 'atMs'> {
  return { kind: 'death', major: true, tag: signal, caption: signal, label: `${w} ${how} ${signal} ${at(atMs)}`, details: [] };
}

/** The mark an event draws in its worker's lane, or null when it draws none. */
export function markOf(e: RunEvent, w: string, lease: Lease | undefined): Omit<Mark, 'id' | 'atMs'> | null {
  switch (e.type) {
    case 'write-accepted':
      return {
        kind: 'write-accepted',
        major: true,
        tag: fenceTag(e.fence),
        caption: `${writeWords(e.target, e.value)}${e.fence === undefined ? '' : ` #${e.fence}`}`,
        label: `${w} write to ${e.target} accepted${fenceWords(e.fence)} ${at(e.atMs)}`,
        details: [`value: ${e.value}`],
      };
    case 'write-rejected':
      return {
        kind: 'write-rejected',
        major: true,
        tag: fenceTag(e.fence),
        caption: `${writeWords(e.target, e.value)}${e.fence === undefined ? '' : ` #${e.fence}`} rejected`,
        label: `${w} write to ${e.target} rejected${fenceWords(e.fence)} ${at(e.atMs)}`,
        details: [`reason: ${e.reason}`, `value: ${e.value}`],
      };
    case 'lease-denied':
      return {
        kind: 'skip',
        major: true,
        tag: null,
        caption: 'denied',
        label: `${w} denied ${e.key} ${at(e.atMs)}`,
        details: [e.heldBy === null ? 'held by: unknown' : `held by: ${e.heldBy}`],
      };
    case 'job-skipped':
      return { kind: 'skip', major: true, tag: null, caption: 'skipped', label: `${w} skipped the job ${at(e.atMs)}`, details: [e.reason] };
    case 'process-killed':
      return deathMark(w, e.atMs, e.signal, 'killed by');
    case 'worker-exited': {
      if (e.signal !== null) return deathMark(w, e.atMs, e.signal, 'died by');
      const lostStore = storeLostBy(e.code);
      return {
        kind: 'exit',
        major: false,
        tag: null,
        caption: null,
        label: e.pooled ? `${w} went back to the warm pool ${at(e.atMs)}` : `${w} exited with code ${e.code ?? 'none'} ${at(e.atMs)}`,
        details: lostStore ? [lostConnectionWords(lostStore)] : [],
      };
    }
    case 'lease-released': {
      const details = [`Redis deleted ${e.deleted} key${e.deleted === 1 ? '' : 's'}`];
      if (lease?.deletedLockOf) {
        return {
          kind: 'blind-delete',
          major: true,
          tag: 'DEL',
          caption: `DEL ${lease.deletedLockOf}'s lock`,
          label: `${w} deleted ${lease.deletedLockOf}'s lock ${e.key} ${at(e.atMs)}`,
          details: [`its own lease had already ended`, ...details],
        };
      }
      return { kind: 'release', major: false, tag: null, caption: null, label: `${w} released ${e.key} ${at(e.atMs)}`, details };
    }
    case 'value-read': {
      const version = e.version === undefined ? '' : ` (version ${e.version})`;
      return {
        kind: 'read',
        major: true,
        tag: e.version === undefined ? null : `v${e.version}`,
        caption: `${e.target} = ${e.value}${e.version === undefined ? '' : ` (v${e.version})`}`,
        label: `${w} read ${e.target} = ${e.value}${version} ${at(e.atMs)}`,
        details: [],
      };
    }
    case 'call-finished': {
      // An answer is an outcome: a 2xx/3xx and a 4xx/5xx differ in glyph, colour and words.
      const ok = e.status < 400;
      return {
        kind: ok ? 'call-ok' : 'call-failed',
        major: true,
        tag: String(e.status),
        caption: `${e.target} ${e.status} ${ok ? 'ok' : 'failed'}`,
        label: `${w} call to ${e.target} answered ${e.status} (${ok ? 'ok' : 'failed'}) ${at(e.atMs)}`,
        details: [`took ${formatMs(e.durationMs)}`],
      };
    }
    case 'retry-scheduled':
      return { kind: 'retry', major: false, tag: null, caption: null, label: `${w} retry scheduled ${at(e.atMs)}`, details: [e.reason] };
    case 'job-fired':
      return { kind: 'fired', major: false, tag: null, caption: null, label: `${w} job fired ${at(e.atMs)}`, details: [] };
    case 'checkpoint-reached':
      return {
        kind: 'checkpoint',
        major: false,
        tag: null,
        caption: null,
        label: `${w} reached checkpoint ${e.checkpoint} ${at(e.atMs)}`,
        details: [],
      };
    case 'clock-skewed':
      return clockMark(w, e.atMs, e);
    case 'fault-staged':
      // Which mechanism plays the fault, in the words the CLI's JSON uses: "partition: kernel nftables drop".
      return {
        kind: 'note',
        major: false,
        tag: null,
        caption: `${e.fault}: ${e.mechanism}`,
        label: `${w} ${e.fault} ${e.target}, by ${e.mechanism} ${at(e.atMs)}`,
        details: [`${e.fault}: ${e.mechanism}`],
      };
    case 'note': {
      const oldClock = oldClockNote(e.text);
      if (oldClock) return clockMark(w, e.atMs, oldClock);
      return { kind: 'note', major: false, tag: null, caption: null, label: `${w} note ${at(e.atMs)}: ${e.text}`, details: [] };
    }
    default:
      return null;
  }
}
