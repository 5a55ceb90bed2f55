// A moved clock's file, as the wall clock shim reads it (wallClockShim.c): its first 8 bytes,
// a signed 64-bit little-endian integer, are the total offset of the process's wall clock
// from the host's, in ms. Whoever may write the file moves that clock: the server that made
// it, or a worker of the run (a lab host's namespace shares the filesystem).
import { closeSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';

const BYTES = 8;

/** Creates `file` holding offset 0 (the host's clock), for this user alone; fails if it exists. */
export function createClockFile(file: string): void {
  writeFileSync(file, Buffer.alloc(BYTES), { mode: 0o600, flag: 'wx' });
}

/** The total offset `file` holds, in ms. */
export function readClockOffsetMs(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(BYTES);
    if (readSync(fd, bytes, 0, BYTES, 0) !== BYTES) throw new Error(`${file} is shorter than ${BYTES} bytes`);
    return Number(bytes.readBigInt64LE(0));
  } finally {
    closeSync(fd);
  }
}

/** Sets the total offset to `totalMs`: the process's next clock read is that far from the host's. */
export function writeClockOffsetMs(file: string, totalMs: number): void {
  const bytes = Buffer.alloc(BYTES);
  bytes.writeBigInt64LE(BigInt(totalMs));
  // In place, in one write at offset 0: the shim's mapping of the file's page sees it at once.
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, BYTES, 0);
  } finally {
    closeSync(fd);
  }
}

/** Jumps the clock by `byMs` (forward when positive) from where it stands; returns the new total. */
export function jumpClockFile(file: string, byMs: number): number {
  const totalMs = readClockOffsetMs(file) + byMs;
  writeClockOffsetMs(file, totalMs);
  return totalMs;
}
