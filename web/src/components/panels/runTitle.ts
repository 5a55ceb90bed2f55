import type { ScenarioManifest } from '@racelab/shared';

/** "duplicate-job · blind-del (broken)": how a run is named everywhere on the page. */
export function runTitle(scenario: ScenarioManifest | undefined, scenarioId: string, variantId: string): string {
  const variant = scenario?.variants.find((v) => v.id === variantId);
  return `${scenarioId} · ${variant ? `${variant.id} (${variant.correct ? 'correct' : 'broken'})` : variantId}`;
}
