// Fault plans: breakpoints at a variant's checkpoints, in words and as URL text.
import { MAX_LATENCY_MS, MAX_LOSS_PERCENT, type FaultRule, type VariantManifest } from '@racelab/shared';

/**
 * "between-setnx-and-expire:first:kill", "working:worker-2:stall:500", "after-grant:worker-2:partition:2000",
 * "after-grant:worker-1:isolate:node-4" (to the run's end), "after-grant:worker-1:isolate:node-4:2000" (then it rejoins),
 * "after-grant:worker-1:slow:node-3:300" (300 ms each way, to the run's end), "after-grant:worker-1:slow:node-3:300:5:2000"
 * (and 5% lost, for 2000 ms; "…:300:0:2000" without loss).
 */
export function formatRule(rule: FaultRule): string {
  const slowTail =
    rule.ms !== undefined ? [String(rule.lossPercent ?? 0), String(rule.ms)] : rule.lossPercent ? [String(rule.lossPercent)] : [];
  const last =
    rule.action === 'kill'
      ? []
      : rule.action === 'isolate'
        ? [rule.node ?? '', ...(rule.ms === undefined ? [] : [String(rule.ms)])]
        : rule.action === 'slow'
          ? [rule.node ?? '', String(rule.latencyMs ?? 0), ...slowTail]
          : [String(rule.ms ?? 0)];
  return [rule.checkpoint, rule.target, rule.action, ...last].join(':');
}

const MS = /^\d{1,5}$/;
const PERCENT = /^\d{1,2}(\.\d{1,3})?$/;
const NODE = /^[\w-]{1,40}$/;

/** The rule a piece of URL text describes, or null when it is not one. */
export function parseRule(text: string): FaultRule | null {
  const [checkpoint, target, action, arg, ...rest] = text.split(':');
  if (!checkpoint || !target) return null;
  if (action === 'slow' && arg !== undefined && NODE.test(arg) && rest.length >= 1 && rest.length <= 3) {
    const [latency, loss, ms] = rest;
    if (!MS.test(latency!) || Number(latency) < 1 || Number(latency) > MAX_LATENCY_MS) return null;
    if (loss !== undefined && (!PERCENT.test(loss) || Number(loss) > MAX_LOSS_PERCENT)) return null;
    if (ms !== undefined && !MS.test(ms)) return null;
    return {
      checkpoint,
      target,
      action,
      node: arg,
      latencyMs: Number(latency),
      ...(loss !== undefined && Number(loss) > 0 ? { lossPercent: Number(loss) } : {}),
      ...(ms === undefined ? {} : { ms: Number(ms) }),
    };
  }
  if (action === 'isolate' && arg !== undefined && NODE.test(arg) && rest.length <= 1) {
    const [ms] = rest;
    if (ms === undefined) return { checkpoint, target, action, node: arg };
    return MS.test(ms) ? { checkpoint, target, action, node: arg, ms: Number(ms) } : null;
  }
  if (rest.length > 0) return null;
  if (action === 'kill' && arg === undefined) return { checkpoint, target, action };
  if ((action === 'stall' || action === 'partition') && arg !== undefined && MS.test(arg))
    return { checkpoint, target, action, ms: Number(arg) };
  return null;
}

export function formatPlan(rules: FaultRule[]): string {
  return rules.map(formatRule).join(',');
}

/** Parses a comma-separated plan; null when any rule does not parse. */
export function parsePlan(text: string): FaultRule[] | null {
  if (text.trim() === '') return [];
  const rules = text.split(',').map((t) => parseRule(t.trim()));
  return rules.every((r): r is FaultRule => r !== null) ? rules : null;
}

export function samePlan(a: FaultRule[], b: FaultRule[]): boolean {
  return formatPlan(a) === formatPlan(b);
}

/** "worker-2 stalls 500 ms at working", "the first worker there is killed at holding-lock", "node-4 is isolated from every worker (…) once worker-1 reaches after-grant". */
export function ruleWords(rule: FaultRule): string {
  const who = rule.target === 'first' ? 'the first worker there' : rule.target;
  if (rule.action === 'isolate') {
    const howLong = rule.ms === undefined ? "to the run's end" : `${rule.ms} ms, then it rejoins`;
    return `${rule.node ?? 'a node'} is isolated from every worker (${howLong}) once ${rule.target === 'first' ? 'a worker' : who} reaches ${rule.checkpoint}`;
  }
  if (rule.action === 'slow') {
    const howLong = rule.ms === undefined ? "to the run's end" : `${rule.ms} ms, then it is restored`;
    const loss = rule.lossPercent ? `, ${rule.lossPercent}% lost` : '';
    return `${rule.node ?? 'a node'} is slowed by ${rule.latencyMs ?? 0} ms each way${loss} for every worker (${howLong}) once ${rule.target === 'first' ? 'a worker' : who} reaches ${rule.checkpoint}`;
  }
  const what =
    rule.action === 'kill'
      ? 'is killed (SIGKILL)'
      : rule.action === 'partition'
        ? `is partitioned ${rule.ms ?? 0} ms (its link down)`
        : `stalls ${rule.ms ?? 0} ms (SIGSTOP)`;
  return `${who} ${what} at ${rule.checkpoint}`;
}

/** The rules a variant can take (its checkpoints), and those it cannot. */
export function fitPlan(rules: FaultRule[], variant: VariantManifest): { kept: FaultRule[]; dropped: FaultRule[] } {
  const kept = rules.filter((r) => variant.checkpoints.includes(r.checkpoint));
  return { kept, dropped: rules.filter((r) => !kept.includes(r)) };
}

/** A new rule for the editor: the first checkpoint, the first worker to reach it, killed. */
export function newRule(variant: VariantManifest): FaultRule | null {
  const checkpoint = variant.checkpoints[0];
  return checkpoint ? { checkpoint, target: 'first', action: 'kill' } : null;
}
