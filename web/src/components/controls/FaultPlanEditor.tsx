// Breakpoints: at a named step of the variant's code (a checkpoint, e.g. between SETNX and
// EXPIRE), the first worker to get there, or a chosen one, dies (SIGKILL) or stalls
// (SIGSTOP for n ms), is partitioned (its lab host's link down for n ms), or has a lab node
// isolated from every worker (redlock's Redis nodes, as its runs on the page listed them),
// to the run's end or for n ms, after which the node rejoins; or slowed for every worker
// (latency added each way, and a share lost), to the run's end or for n ms, after which it is restored.
// The server checks each rule and says why it refuses one.
import { MAX_LATENCY_MS, MAX_LOSS_PERCENT, type FaultRule } from '@racelab/shared';
import { newRule, ruleWords, samePlan } from '../../model/faultPlan.js';
import { runSummary } from '../../model/runSummary.js';
import { useStore, type State } from '../../store/index.js';
import { selectVariant } from '../../store/selectors.js';

/** Worker ids seen in the runs of this scenario on the page, joined (a stable primitive). */
const selectRoster = (s: State): string => {
  const ids = new Set<string>();
  for (const run of Object.values(s.runs)) if (run.scenario === s.scenarioId) for (const w of runSummary(run.events).workers) ids.add(w);
  return [...ids].join(' ');
};

/** Lab nodes an isolate may cut and a slow may slow, as the runs of this scenario on the page listed them, joined. */
const selectLabNodes = (s: State): string => {
  const nodes = new Set<string>();
  for (const run of Object.values(s.runs))
    if (run.scenario === s.scenarioId) for (const n of runSummary(run.events).started?.nodes ?? []) nodes.add(n);
  return [...nodes].join(' ');
};

/** The rule with another action, keeping what the new action takes. */
function withAction(rule: FaultRule, action: string, nodes: string[]): FaultRule {
  const { checkpoint, target } = rule;
  if (action === 'kill') return { checkpoint, target, action: 'kill' };
  if (action === 'isolate') return { checkpoint, target, action: 'isolate', node: rule.node ?? nodes[0] ?? 'node-1' };
  if (action === 'slow') return { checkpoint, target, action: 'slow', node: rule.node ?? nodes[0] ?? 'node-1', latencyMs: 300 };
  return { checkpoint, target, action: action === 'partition' ? 'partition' : 'stall', ms: rule.ms ?? 500 };
}

function RuleRow({
  rule,
  index,
  checkpoints,
  roster,
  nodes,
  onChange,
  onRemove,
}: {
  rule: FaultRule;
  index: number;
  checkpoints: string[];
  roster: string[];
  nodes: string[];
  onChange(rule: FaultRule): void;
  onRemove(): void;
}) {
  const n = index + 1;
  const targets = ['first', ...roster, ...(rule.target !== 'first' && !roster.includes(rule.target) ? [rule.target] : [])];
  return (
    <li className="rule">
      <div className="rule-inputs">
        <select
          aria-label={`Breakpoint ${n} checkpoint`}
          value={rule.checkpoint}
          onChange={(e) => onChange({ ...rule, checkpoint: e.target.value })}
        >
          {checkpoints.map((c) => (
            <option key={c} value={c}>
              at {c}
            </option>
          ))}
        </select>
        <select aria-label={`Breakpoint ${n} worker`} value={rule.target} onChange={(e) => onChange({ ...rule, target: e.target.value })}>
          {targets.map((t) => (
            <option key={t} value={t}>
              {t === 'first' ? 'the first worker there' : t}
            </option>
          ))}
        </select>
        <select
          aria-label={`Breakpoint ${n} action`}
          value={rule.action}
          onChange={(e) => onChange(withAction(rule, e.target.value, nodes))}
        >
          <option value="kill">dies (SIGKILL)</option>
          <option value="stall">stalls (SIGSTOP)</option>
          <option value="partition">is partitioned (link down; workers that are lab hosts)</option>
          {(nodes.length > 0 || rule.action === 'isolate') && <option value="isolate">isolates a lab node from every worker</option>}
          {(nodes.length > 0 || rule.action === 'slow') && <option value="slow">slows a lab node for every worker</option>}
        </select>
        {(rule.action === 'isolate' || rule.action === 'slow') && (
          <select aria-label={`Breakpoint ${n} node`} value={rule.node} onChange={(e) => onChange({ ...rule, node: e.target.value })}>
            {[...new Set([...nodes, ...(rule.node ? [rule.node] : [])])].map((node) => (
              <option key={node} value={node}>
                {node}
              </option>
            ))}
          </select>
        )}
        {rule.action === 'slow' && (
          <input
            type="number"
            aria-label={`Breakpoint ${n} latency (ms, each way)`}
            min={1}
            max={MAX_LATENCY_MS}
            step={50}
            value={rule.latencyMs ?? 300}
            onChange={(e) =>
              onChange({ ...rule, latencyMs: Math.max(1, Math.min(MAX_LATENCY_MS, Math.round(Number(e.target.value) || 1))) })
            }
          />
        )}
        {rule.action === 'slow' && (
          <input
            type="number"
            aria-label={`Breakpoint ${n} loss (%)`}
            min={0}
            max={MAX_LOSS_PERCENT}
            step={1}
            value={rule.lossPercent ?? 0}
            onChange={(e) => {
              const { lossPercent: _, ...rest } = rule;
              const percent = Math.max(0, Math.min(MAX_LOSS_PERCENT, Number(e.target.value) || 0));
              onChange(percent === 0 ? rest : { ...rest, lossPercent: percent });
            }}
          />
        )}
        {(rule.action === 'isolate' || rule.action === 'slow') && (
          <input
            type="number"
            aria-label={`Breakpoint ${n} ${rule.action} (ms, empty: to the run's end)`}
            placeholder="to the end"
            min={0}
            max={60000}
            step={50}
            value={rule.ms ?? ''}
            onChange={(e) => {
              const { ms: _, ...rest } = rule;
              const text = e.target.value;
              onChange(text === '' ? rest : { ...rest, ms: Math.max(0, Math.min(60000, Math.round(Number(text) || 0))) });
            }}
          />
        )}
        {(rule.action === 'stall' || rule.action === 'partition') && (
          <input
            type="number"
            aria-label={`Breakpoint ${n} ${rule.action} (ms)`}
            min={0}
            max={60000}
            step={50}
            value={rule.ms ?? 0}
            onChange={(e) => onChange({ ...rule, ms: Math.max(0, Math.min(60000, Math.round(Number(e.target.value) || 0))) })}
          />
        )}
        <button type="button" className="remove" aria-label={`Remove breakpoint ${n}`} onClick={onRemove}>
          ✕
        </button>
      </div>
      <p className="rule-words">{ruleWords(rule)}</p>
    </li>
  );
}

export function FaultPlanEditor() {
  const variant = useStore(selectVariant);
  const faults = useStore((s) => s.faults);
  const setFaults = useStore((s) => s.setFaults);
  const roster = useStore(selectRoster);
  const nodes = useStore(selectLabNodes);
  if (!variant) return null;
  const add = newRule(variant);
  const own = samePlan(faults, variant.faults);
  return (
    <fieldset className="fault-plan">
      <legend className="field-label">Breakpoints</legend>
      {variant.checkpoints.length === 0 ? (
        <p className="help">{variant.id} names no checkpoints. Pause or kill its workers live, from their lanes, while it runs.</p>
      ) : (
        <>
          {faults.length === 0 && <p className="help">None: the run goes through every checkpoint untouched.</p>}
          <ol className="rules">
            {faults.map((rule, i) => (
              <RuleRow
                key={i}
                rule={rule}
                index={i}
                checkpoints={variant.checkpoints}
                roster={roster ? roster.split(' ') : []}
                nodes={nodes ? nodes.split(' ') : []}
                onChange={(r) => setFaults(faults.map((x, j) => (j === i ? r : x)))}
                onRemove={() => setFaults(faults.filter((_, j) => j !== i))}
              />
            ))}
          </ol>
          <div className="buttons">
            <button type="button" disabled={!add} onClick={() => add && setFaults([...faults, add])}>
              Add breakpoint
            </button>
            {!own && (
              <button type="button" onClick={() => setFaults(variant.faults)}>
                Use {variant.id}’s own plan
              </button>
            )}
          </div>
        </>
      )}
    </fieldset>
  );
}
