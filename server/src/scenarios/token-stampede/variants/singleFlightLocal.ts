import { defineVariant } from '../../types.js';
import { keptTokensPass } from '../keptTokens.js';
import type { Token, TokenService } from '../tokenService.js';

export default defineVariant<TokenService>({
  id: 'single-flight-local',
  title: 'Single-flight inside each process',
  correct: false,
  summary:
    "Each server process keeps its token and lets one refresh at a time fly; its other requests wait for that one. Nothing is shared across processes: one refresh per server, each revoking the others' tokens, so only the last server's requests succeed.",
  figures: 'refresh calls 3 (one per server), ok 16, failed 34',
  source: import.meta.url,
  checkpoints: ['requests-answered'],
  expectedOtherwise: keptTokensPass,
  defaults: { arrival: 'in-turn' },
  async run(service) {
    let current: Token = service.expiredToken; // this process's token: expired at the start
    let refreshing: Promise<Token> | null = null; // this process's refresh in flight, if any

    await service.serve({
      kept: () => current, // for the run's choreography near the end of its use
      async getToken() {
        if (Date.now() < current.goodUntilMs) return current.value;
        // Single-flight: the first request starts the refresh, the others await the same one.
        refreshing ??= service
          .refresh()
          .then((token) => (current = token))
          .finally(() => (refreshing = null));
        return (await refreshing).value;
      },
    });
  },
});
