const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs `stop` on SIGINT/SIGTERM/SIGHUP (then re-raises the signal) and `killSync` on process exit; returns an unregister function. */
export function registerExitHooks(stop: () => Promise<void>, killSync: () => void): () => void {
  let stopping = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C while stopping: stop waiting and just kill.
      killSync();
    } else {
      stopping = true;
    }
    void stop()
      .catch(() => killSync())
      .finally(() => {
        unregister();
        // Listening to a signal disables Node's default "terminate"; restore it unless someone else
        // (e.g. the server's own shutdown) listens and will exit by itself.
        if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
      });
  };
  const onExit = () => killSync();
  for (const sig of SIGNALS) process.on(sig, onSignal);
  process.on('exit', onExit);

  function unregister(): void {
    for (const sig of SIGNALS) process.removeListener(sig, onSignal);
    process.removeListener('exit', onExit);
  }
  return unregister;
}
