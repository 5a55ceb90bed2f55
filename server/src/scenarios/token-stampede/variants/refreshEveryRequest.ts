import { defineVariant } from '../../types.js';
import { refreshPerRequestPasses } from '../refreshBudget.js';
import type { TokenService } from '../tokenService.js';

export default defineVariant<TokenService>({
  id: 'refresh-every-request',
  title: 'Refresh on every request',
  correct: false,
  summary:
    'Nothing keeps or shares the token: every request finds it expired and asks the provider for its own. Each new token revokes the one before, so only the last one issued works: at the defaults 50 refreshes, 1 request ok, 49 get a 401.',
  figures: '50 requests over 3 servers: refresh calls 50, ok 1, failed (401) 49',
  source: import.meta.url,
  checkpoints: ['requests-answered'],
  expectedOtherwise: refreshPerRequestPasses,
  async run(service) {
    await service.serve({
      async getToken() {
        // The token is expired, so this request fetches a fresh one for itself, and so
        // does every other request on every server, at the same moment.
        const token = await service.refresh(); // POST /token: issues a new token, revokes the previous
        return token.value;
      },
    });
  },
});
