// The browser's netlink shim (noNetlink.c): Chromium, preloaded with it, cannot watch the
// host's links, so the veth links real partitions make and remove on the host never fail a
// page's request in flight with ERR_NETWORK_CHANGED, whatever runs beside the browser tests
// (e2e/playwright.config.ts launches Chromium under it). No C compiler, or not Linux: the
// browser runs as it is.
import { fileURLToPath } from 'node:url';
import { buildPreloadLibrary, type PreloadBuild } from '../labnet/preloadLibrary.js';

/** Shipped as source: from src/ or dist/ alike, the package's src/ folder. */
const SOURCE = fileURLToPath(new URL('../../src/testing/noNetlink.c', import.meta.url));

/** The shim's library, from the cache or compiled now, or why there is none. */
export function netlinkShim(): PreloadBuild {
  if (process.platform !== 'linux') return { why: 'the netlink shim is for Linux' };
  return buildPreloadLibrary({ source: SOURCE, name: 'noNetlink', prefix: 'nonetlink', what: 'the netlink shim' });
}

/** The environment a browser is launched with: this process's, the shim preloaded where it builds. */
export function browserEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const shim = netlinkShim();
  if ('why' in shim) return env;
  return { ...env, LD_PRELOAD: [env.LD_PRELOAD, shim.library].filter(Boolean).join(' ') };
}
