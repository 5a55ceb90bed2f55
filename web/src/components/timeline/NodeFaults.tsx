// Live isolation of a lab node ("isolate node-3": cut from every worker to the run's end),
// for a run whose lab has nodes the workers reach over the network (redlock's Redis nodes,
// listed by run-started). One row under the worker lanes while the run is in progress; its
// buttons join the lanes' controls as one Tab stop (useRovingMarks). The server answers with
// a fault-staged isolation per worker, which names the mechanism in each worker's lane.
import type { RunEvent } from '@racelab/shared';
import { useStore } from '../../store/index.js';

/** The nodes the run may isolate, space-separated (a stable primitive for the store's selector). */
function isolatable(events: RunEvent[]): string {
  const started = events.find((e) => e.type === 'run-started');
  return started?.type === 'run-started' ? started.nodes.join(' ') : '';
}

/** The nodes already isolated, space-separated: each isolation's target is "<node> from <worker>". */
function isolated(events: RunEvent[]): string {
  const nodes = new Set<string>();
  for (const e of events) if (e.type === 'fault-staged' && e.fault === 'isolation') nodes.add(e.target.split(' from ')[0]!);
  return [...nodes].join(' ');
}

export function NodeFaults({ runId }: { runId: string }) {
  const sendFault = useStore((s) => s.sendFault);
  const nodes = useStore((s) => isolatable(s.runs[runId]?.events ?? []));
  const cut = useStore((s) => isolated(s.runs[runId]?.events ?? [])).split(' ');
  if (!nodes) return null;
  return (
    <div className="tl-row node-faults">
      <div className="tl-label">
        <span className="worker-id">isolate a node</span>
        <span className="lane-faults" role="toolbar" aria-label="lab nodes">
          {nodes.split(' ').map((node) => (
            <button
              key={node}
              type="button"
              tabIndex={-1}
              className={`fault-btn${cut.includes(node) ? ' on' : ''}`}
              aria-label={cut.includes(node) ? `${node} isolated` : `Isolate ${node}`}
              aria-pressed={cut.includes(node)}
              title={
                cut.includes(node) ? `${node} is cut from every worker to the run’s end` : `Cut ${node} from every worker, to the run’s end`
              }
              onClick={() => !cut.includes(node) && sendFault(runId, node, 'isolate')}
            >
              {node.replace(/^node-/, '')}
            </button>
          ))}
        </span>
      </div>
      <div className="tl-track" />
    </div>
  );
}
