import { useStore } from '../store/index.js';

const words = {
  connecting: 'connecting…',
  connected: 'connected',
  reconnecting: 'reconnecting…',
  offline: 'offline: a recorded run, no server needed',
} as const;

export function ConnectionStatus() {
  const state = useStore((s) => s.connection);
  const serverError = useStore((s) => s.serverError);
  return (
    <div className="connection">
      <p className={`connection-status ${state}`} role="status" aria-live="polite">
        <span className="dot" aria-hidden="true" />
        {words[state]}
      </p>
      {serverError && (
        <p className="server-error" role="alert">
          Server: {serverError}
        </p>
      )}
    </div>
  );
}
