import { useMemo } from 'react';
import { checkInputs } from '../../model/params.js';
import { useStore } from '../../store/index.js';
import { selectLiveInProgress, selectRunInProgress, selectScenario } from '../../store/selectors.js';

/** What Run does while a link's schedule is set, in the form and on presenter mode's stage bar. */
export const scheduleWords = (schedule: string): string =>
  `Run replays a schedule the explorer found: ${schedule.split(',').length} decisions, in their order.`;

export function RunControls() {
  const scenario = useStore(selectScenario);
  const variantId = useStore((s) => s.variantId);
  const inputs = useStore((s) => s.paramInputs);
  const connected = useStore((s) => s.transport !== null);
  const inProgress = useStore(selectRunInProgress);
  const canCancel = useStore(selectLiveInProgress);
  const runError = useStore((s) => s.runError);
  const startRun = useStore((s) => s.startRun);
  const cancelRun = useStore((s) => s.cancelRun);
  const schedule = useStore((s) => s.schedule);
  const dropSchedule = useStore((s) => s.dropSchedule);
  const valid = useMemo(() => !!scenario && !!variantId && checkInputs(scenario, variantId, inputs).ok, [scenario, variantId, inputs]);
  const why = !connected
    ? 'Not connected to the server.'
    : inProgress
      ? 'A run is in progress.'
      : !valid
        ? 'Fix the parameters above to run.'
        : null;
  return (
    <div className="run-controls">
      <div className="buttons">
        <button
          type="button"
          className="run"
          disabled={!connected || inProgress || !valid}
          aria-describedby={why ? 'run-why' : undefined}
          title="Run the selected variant (R)"
          aria-keyshortcuts="R"
          onClick={() => startRun()}
        >
          Run{' '}
          <kbd className="key-hint" aria-hidden="true">
            R
          </kbd>
        </button>
        {canCancel && (
          <button type="button" className="cancel" title="Cancel (X)" onClick={() => cancelRun()}>
            Cancel run
          </button>
        )}
      </div>
      {/* Always one line, empty or not: the block keeps its height when a run starts or ends. */}
      <p className="run-why" id="run-why">
        {why ?? 'Press Run or R.'}
      </p>
      {schedule && (
        <p className="run-schedule" role="status">
          {scheduleWords(schedule)}{' '}
          <button type="button" onClick={() => dropSchedule()}>
            Drop the schedule
          </button>
        </p>
      )}
      {runError && (
        <p className="error run-refused" role="alert">
          The run did not start: {runError}
        </p>
      )}
    </div>
  );
}
