// Live isolation of a lab node ("isolate node-3": cut from every worker until "rejoin
// node-3" or the run's end), for a run whose lab has nodes the workers reach over the
// network (redlock's Redis nodes, listed by run-started). One row under the worker lanes
// while the run is in progress; its buttons join the lanes' controls as one Tab stop
// (useRovingMarks). The server answers with a fault-staged isolation (or rejoin) per worker,
// which names the mechanism in each worker's lane; a node's button follows the last of them.
import type { RunEvent } from '@racelab/shared';
import { nodesCutKey } from '../../model/isolations.js';
import { useStore } from '../../store/index.js';

/** The nodes the run may isolate, space-separated (a stable primitive for the store's selector). */
function isolatable(events: RunEvent[]): string {
  const started = events.find((e) => e.type === 'run-started');
  return started?.type === 'run-started' ? started.nodes.join(' ') : '';
}

const NO_EVENTS: RunEvent[] = [];

export function NodeFaults({ runId }: { runId: string }) {
  const sendFault = useStore((s) => s.sendFault);
  const nodes = useStore((s) => isolatable(s.runs[runId]?.events ?? []));
  const cut = useStore((s) => nodesCutKey(s.runs[runId]?.events ?? NO_EVENTS)).split(' ');
  if (!nodes) return null;
  return (
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
                {isCut ? `rejoin ${node.replace(/^node-/, '')}` : node.replace(/^node-/, '')}
              </button>
            );
          })}
        </span>
      </div>
      <div className="tl-track" />
    </div>
  );
}
