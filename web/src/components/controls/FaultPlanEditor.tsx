// Breakpoints: at a named step of the variant's code (a checkpoint, e.g. between SETNX and
// EXPIRE), the first worker to get there, or a chosen one, dies (SIGKILL) or stalls
// (SIGSTOP for n ms). The server checks each rule and says why it refuses one.
import type { FaultRule } from '@racelab/shared';
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

function RuleRow({
  rule,
  index,
  checkpoints,
  roster,
  onChange,
  onRemove,
}: {
  rule: FaultRule;
  index: number;
  checkpoints: string[];
  roster: string[];
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
          onChange={(e) =>
            onChange(
              e.target.value === 'kill'
                ? { checkpoint: rule.checkpoint, target: rule.target, action: 'kill' }
                : { ...rule, action: e.target.value === 'partition' ? 'partition' : 'stall', ms: rule.ms ?? 500 },
            )
          }
        >
          <option value="kill">dies (SIGKILL)</option>
          <option value="stall">stalls (SIGSTOP)</option>
          <option value="partition">is partitioned (link down; workers that are lab hosts)</option>
        </select>
        {rule.action !== 'kill' && (
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
