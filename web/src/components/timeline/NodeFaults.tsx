// Live faults on a lab node, for a run whose lab has nodes the workers reach over the network
// (redlock's Redis nodes, listed by run-started): isolate (cut from every worker until
// "rejoin node-3" or the run's end), and slow (the latency chosen here added each way to
// every worker's traffic with it, and the share of it lost, until "restore node-3" or the
// run's end). Two rows under the worker lanes while the run is in progress; their buttons
// join the lanes' controls as one Tab stop (useRovingMarks), and the latency and the loss are
// fields of their own, Tab stops before them. The server answers with a fault-staged isolation (or rejoin, slowdown, its end) per
// worker, which names the mechanism in each worker's lane; a node's button follows the last of them.
import { useState } from 'react';
import { MAX_LATENCY_MS, MAX_LOSS_PERCENT, type RunEvent } from '@racelab/shared';
import { nodesStruckNow } from '../../model/labNodeFaults.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { useStore } from '../../store/index.js';

/** The nodes the run may isolate or slow, space-separated (a stable primitive for the store's selector). */
function labNodes(events: readonly RunEvent[]): string {
  const started = events.find((e) => e.type === 'run-started');
  return started?.type === 'run-started' ? started.nodes.join(' ') : '';
}

/** What a slow adds when the field is left as it is: well past redlock's 100 ms a node may take. */
const DEFAULT_LATENCY_MS = 300;
const short = (node: string): string => node.replace(/^node-/, '');

/** A whole number from `min` to `max`; an empty field reads as NaN, which is none. */
const inRange = (value: number, min: number, max: number): boolean => Number.isInteger(value) && value >= min && value <= max;

interface SlowFieldProps {
  className: string;
  label: string;
  min: number;
  max: number;
  value: number;
  onChange: (value: number) => void;
}

/** One number a slow takes (its latency, its loss): marked invalid out of range, when the slow buttons are disabled. */
function SlowField({ className, label, min, max, value, onChange }: SlowFieldProps) {
  return (
    <input
      className={className}
      type="number"
      min={min}
      max={max}
      step={1}
      value={Number.isNaN(value) ? '' : value}
      aria-label={label}
      aria-invalid={!inRange(value, min, max)}
      onChange={(e) => onChange(e.target.valueAsNumber)}
    />
  );
}

export function NodeFaults({ runId }: { runId: string }) {
  const sendFault = useStore((s) => s.sendFault);
  const events = useDrawnLog(runId);
  const nodes = labNodes(events);
  const { cut, slowed } = nodesStruckNow(events);
  const [latencyMs, setLatencyMs] = useState(DEFAULT_LATENCY_MS);
  const [lossPercent, setLossPercent] = useState(0);
  if (!nodes) return null;
  const latencyOk = inRange(latencyMs, 1, MAX_LATENCY_MS);
  const lossOk = inRange(lossPercent, 0, MAX_LOSS_PERCENT);
  const slowOk = latencyOk && lossOk;
  const lost = lossPercent > 0 ? `, losing ${lossPercent}% of it` : '';
  return (
    <>
      <div className="tl-row node-faults">
        <div className="tl-label">
          <span className="worker-id">isolate a node</span>
          <span className="lane-faults" role="toolbar" aria-label="lab nodes">
            {nodes.split(' ').map((node) => {
              const isCut = cut.includes(node);
              return (
                <button
                  key={node}
                  type="button"
                  tabIndex={-1}
                  className={`fault-btn${isCut ? ' on' : ''}`}
                  aria-label={isCut ? `Rejoin ${node}` : `Isolate ${node}`}
                  title={
                    isCut ? `${node} is cut from every worker: let it reach them again` : `Cut ${node} from every worker, until it rejoins`
                  }
                  onClick={() => sendFault(runId, node, isCut ? 'rejoin' : 'isolate')}
                >
                  {isCut ? `rejoin ${short(node)}` : short(node)}
                </button>
              );
            })}
          </span>
        </div>
        <div className="tl-track" />
      </div>
      <div className="tl-row node-faults">
        <div className="tl-label">
          <span className="worker-id">
            slow a node by{' '}
            <SlowField
              className="slow-latency"
              label="Latency a slow adds (ms, each way)"
              min={1}
              max={MAX_LATENCY_MS}
              value={latencyMs}
              onChange={setLatencyMs}
            />{' '}
            ms, losing{' '}
            <SlowField
              className="slow-loss"
              label="Share of the traffic a slow loses (%)"
              min={0}
              max={MAX_LOSS_PERCENT}
              value={lossPercent}
              onChange={setLossPercent}
            />{' '}
            %
          </span>
          <span className="lane-faults" role="toolbar" aria-label="lab nodes to slow">
            {nodes.split(' ').map((node) => {
              const isSlowed = slowed.includes(node);
              return (
                <button
                  key={node}
                  type="button"
                  tabIndex={-1}
                  className={`fault-btn slow${isSlowed ? ' on' : ''}`}
                  aria-label={isSlowed ? `Restore ${node}` : `Slow ${node}`}
                  title={
                    isSlowed
                      ? `${node} is slowed: bring it back to full speed`
                      : slowOk
                        ? `Add ${latencyMs} ms each way to every worker's traffic with ${node}${lost}, until it is restored`
                        : latencyOk
                          ? `The loss is 0 to ${MAX_LOSS_PERCENT}%`
                          : `The latency is 1 to ${MAX_LATENCY_MS} ms`
                  }
                  disabled={!isSlowed && !slowOk}
                  onClick={() =>
                    isSlowed
                      ? sendFault(runId, node, 'restore')
                      : sendFault(runId, node, 'slow', { latencyMs, ...(lossPercent > 0 ? { lossPercent } : {}) })
                  }
                >
                  {isSlowed ? `restore ${short(node)}` : short(node)}
                </button>
              );
            })}
          </span>
        </div>
        <div className="tl-track" />
      </div>
    </>
  );
}
