// Where many clients refreshing one rotating token at once was seen in the wild: each
// source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Concurrent token refreshes can lead to unintentional signing out of users when multiple tabs are open (supabase auth-js #213)',
    url: 'https://github.com/supabase/auth-js/issues/213',
    summary:
      'Several tabs refreshed the same refresh token at once; rotation revoked the losers and signed users out, until the server accepted a reuse within a short interval.',
  },
  {
    title: 'Solving appropriate the Client Side RefreshToken Race Issue (node-oauth2-server #80)',
    url: 'https://github.com/node-oauth/node-oauth2-server/issues/80',
    summary:
      'When an access token expires every browser tab starts its own refresh grant; with rotation on, all but one fail, so the issue proposes a short window that returns the same token.',
  },
  {
    title: 'Configure Refresh Token Rotation (Auth0 docs)',
    url: 'https://auth0.com/docs/tokens/refresh-tokens/configure-refresh-token-rotation',
    summary:
      'A reuse interval exists “to avoid concurrency issues” when one rotating refresh token is exchanged more than once; past it, reuse detection revokes the whole token family.',
  },
  {
    title: 'User sessions: refresh token reuse detection (Supabase docs)',
    url: 'https://supabase.com/docs/guides/auth/sessions',
    summary:
      'A refresh token can be exchanged once; a 10-second reuse interval covers legitimate concurrent refreshes such as server-side rendering followed by the browser.',
  },
];
