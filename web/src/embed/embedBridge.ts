// The embed's end of the postMessage protocol (@racelab/shared's embedMessage): listens to
// the host page that frames it, does what it asks, and reports back to it alone. A message
// from anyone else, or one that is not a command of this version, is ignored; the reason
// goes to the console (debug), where the host page's author looks when nothing happens.
import { EMBED_PROTOCOL_VERSION, parseEmbedCommand, type EmbedReport } from '@racelab/shared';
import type { AppStore } from '../store/index.js';
import { performCommand } from './embedCommands.js';
import { startReports } from './embedReports.js';
import { distrust, trustedOrigin } from './trust.js';

export interface BridgeWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void } | null;
  location: { origin: string };
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/**
 * Starts listening to the host page trusted under `named` (the link's `origin=`); `ready`
 * waits for the run the link names (`awaitRun`) to be on screen. Returns the stop.
 */
export function startEmbedBridge(store: AppStore, named: string | undefined, awaitRun: boolean, win: BridgeWindow = window): () => void {
  // Not framed: nobody to listen to or report to.
  const parent = win.parent && win.parent !== (win as unknown) ? win.parent : null;
  if (!parent) return () => {};
  const trusted = trustedOrigin(named, win.location.origin);
  const post = (report: EmbedReport) => parent.postMessage(report, trusted);
  const ignore = (why: string) => console.debug(`racelab embed: ignored a message ${why}`);

  const onMessage = (event: MessageEvent) => {
    const untrusted = distrust(event, trusted, parent);
    if (untrusted) return ignore(untrusted);
    const parsed = parseEmbedCommand(event.data);
    if (!parsed.ok) return ignore(`from ${event.origin}: ${parsed.error}`);
    const { command } = parsed;
    void performCommand(store, command)
      .catch((e: unknown) => (e instanceof Error ? e.message : String(e)))
      .then((error) => {
        if (error) post({ racelab: EMBED_PROTOCOL_VERSION, type: 'error', command: command.type, error });
      });
  };
  win.addEventListener('message', onMessage);
  const stopReports = startReports(store, post, {}, awaitRun);
  return () => {
    win.removeEventListener('message', onMessage);
    stopReports();
  };
}
