// The built JavaScript of a server module, for a script Node runs in a process of its own
// (a worker, the relay host): always the build, even from a test that imports the sources,
// since forking through a TypeScript loader costs ~360 ms a process.
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path of `url` (a module beside the caller, e.g. new URL('./relayHostMain.js', import.meta.url)) in server/dist. */
export function builtScript(url: URL): string {
  return fileURLToPath(url).replace(`${sep}server${sep}src${sep}`, `${sep}server${sep}dist${sep}`);
}
