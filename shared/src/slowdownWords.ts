// A lab node's slowdown in words, for people: the page's band caption and the fault's words.
// Apart from the event schemas, so that a worker that stages a slowdown loads no schema.

/** A slowdown in words: "node-3 +300 ms, 5% lost". */
export function slowdownWords(node: string, slowdown: { latencyMs: number; lossPercent: number }): string {
  return `${node} +${slowdown.latencyMs} ms${slowdown.lossPercent > 0 ? `, ${slowdown.lossPercent}% lost` : ''}`;
}
