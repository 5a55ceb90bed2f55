// A run made the way the playground makes one, with a part of the scenario or of the
// services changed by the test (a step held at a gate, a statement of its own): the
// rest is the real scenario on the real stores and worker processes.
import { resolveParams } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { Run, type RunServices } from '../runs/run.js';
import type { AnyScenario } from '../scenarios/registry.js';

export interface RunOfOptions {
  params?: Record<string, unknown>;
  deadlineMs?: number;
  /** The scenario as the run gets it: a new object made from the catalog's (which is left alone). */
  scenario?(scenario: AnyScenario): AnyScenario;
  /** Replaces some of the playground's services. */
  services?: Partial<RunServices>;
}

/** A prepared run of `scenarioId`'s `variantId` on the playground's stores and pool; throws on bad parameters. */
export function runOf(playground: Playground, scenarioId: string, variantId: string, options: RunOfOptions = {}): Run {
  const scenario = playground.catalog.scenarios.get(scenarioId);
  const manifest = playground.catalog.manifests.find((m) => m.id === scenarioId);
  if (!scenario || !manifest) throw new Error(`no scenario ${scenarioId}`);
  const params = resolveParams(manifest, variantId, options.params ?? {});
  if (!params.ok) throw new Error(params.error);
  return new Run(
    {
      scenario: options.scenario ? options.scenario(scenario) : scenario,
      variantId,
      params: params.params,
      deadlineMs: options.deadlineMs,
    },
    {
      pool: playground.pool,
      redis: playground.redis,
      pg: playground.pg,
      keyspace: playground.keyspace,
      running: playground.running,
      redact: playground.redact,
      credentials: playground.credentials,
      ...options.services,
    },
  );
}
