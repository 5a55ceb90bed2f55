// A played schedule in words, one line a step that touched a store (or called a lock) or a
// fault the schedule played: "worker-1: SET lock:document", "worker-1: lock.release(lock:x)",
// "worker-1 is held before EVAL lock:document; worker-2 goes", "the lease 'lock:document'
// runs out (Redis's clock)", "worker-2 is killed before UPDATE …". Pauses and checkpoints are
// left out: they change nothing in the stores.
import { stepWords } from '@racelab/shared';
import type { Decision } from './stepScheduler.js';

export function storyOf(trace: Decision[]): string[] {
  const lines: string[] = [];
  trace.forEach((decision, j) => {
    const { worker, expire, kill } = decision.choice;
    const step = decision.waiting.find((w) => w.worker === worker)!.step;
    for (const key of decision.ranOut ?? [])
      lines.push(`every worker only polls: time passes and the lease '${key}' runs out (Redis's clock)`);
    if (expire !== undefined) lines.push(`the lease '${expire}' runs out (Redis's clock)`);
    if (kill) return void lines.push(`${worker} is killed before ${stepWords(step)}`);
    if (decision.preemption) {
      const held = trace[j - 1]!.choice.worker;
      const next = decision.waiting.find((w) => w.worker === held)!.step;
      lines.push(`${held} is held before ${stepWords(next)}; ${worker} goes`);
    }
    if (step.kind === 'redis' || step.kind === 'postgres' || step.kind === 'lock') lines.push(`${worker}: ${stepWords(step)}`);
  });
  return lines;
}
