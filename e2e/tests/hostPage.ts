// Plain HTML pages on an origin of their own (http://localhost:<port>), for the embed
// tests: a blog post's page that frames racelab and drives it by postMessage, and pages of
// other origins that try to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostServer {
  /** http://localhost:<port> */
  origin: string;
  /** Serves `html` at `path` from now on. */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

/** Starts a server of the pages given it, on `port` (0: a free one). */
export async function startHostServer(port = 0): Promise<HostServer> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const html = pages.get(new URL(request.url ?? '/', 'http://x').pathname);
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A host page: an iframe of `embedSrc`, every report the embed's origin posts kept in
 * `window.reports`, and `window.send(message)` to post a command to the embed.
 */
export function hostHtml(embedSrc: string, extra = ''): string {
  const embedOrigin = new URL(embedSrc).origin;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>A post that embeds a race</title></head>
<body>
<h1>A post that embeds a race</h1>
<iframe id="embed" src="${embedSrc.replace(/&/g, '&amp;')}" width="800" height="450" style="border:0"></iframe>
${extra}
<script>
  window.reports = [];
  addEventListener('message', (e) => { if (e.origin === ${JSON.stringify(embedOrigin)}) window.reports.push(e.data); });
  window.send = (m) => document.getElementById('embed').contentWindow.postMessage(m, ${JSON.stringify(embedOrigin)});
</script>
</body></html>`;
}
