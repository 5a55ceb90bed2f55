// The HAProxy configuration of a workshop: one address in front of the racelab servers.
// Cookie affinity keeps a page on the server that gave it its first answer, so its WebSocket,
// and the run that socket started, stay on that server; leastconn sends a new page to the
// server with the fewest connections (a WebSocket is one long connection); the health check
// asks /readyz, which answers 503 when a server is full, stopping, or without its stores, so
// a new page goes to a server that can take it while the pages already on the others stay.
// When every server is full at once, each is also listed as a backup without a check
// (`allbackups`): a new page then still lands on a server, whose line takes its start or says
// the line is full, instead of the proxy answering 503 for the whole room; a backup entry
// carries its server's cookie, so the page stays there. A dead server's refused connection is
// retried on another (`retries`, `redispatch`).
// A WebSocket lives as long as its page: the tunnel, client and server timeouts are an hour.

/** One racelab server behind the proxy. */
export interface Backend {
  /** Its name in the proxy and the value of the affinity cookie: s1, s2, … */
  name: string;
  port: number;
}

/** The affinity cookie HAProxy inserts; its value names the server. */
export const AFFINITY_COOKIE = 'RACELAB_SERVER';

/** The configuration for a proxy on 127.0.0.1:`port` in front of `backends` (all on 127.0.0.1). */
export function haproxyConfig(port: number, backends: readonly Backend[]): string {
  return [
    "# racelab's workshop: one address in front of several racelab servers.",
    '# Written for one session by the workshop launcher and removed when it stops.',
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    // A request to a server that just died (refused before its check noticed) is tried on another;
    // once the checks mark it down, a cookie naming it is ignored (no `option persist`) and a
    // live server answers with a new one: a page of a dead server reconnects within seconds.
    '  retries 3',
    '  option redispatch',
    '  timeout connect 5s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    '  timeout http-request 10s',
    '',
    'frontend racelab',
    `  bind 127.0.0.1:${port}`,
    '  default_backend servers',
    '',
    'backend servers',
    '  balance leastconn',
    `  cookie ${AFFINITY_COOKIE} insert indirect nocache`,
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  option allbackups',
    // A server that stops answering leaves the rotation within a couple of seconds.
    '  default-server inter 2s fastinter 500ms downinter 1s rise 2 fall 2',
    ...backends.map(({ name, port: at }) => `  server ${name} 127.0.0.1:${at} cookie ${name} check`),
    ...backends.map(({ name, port: at }) => `  server ${name}-full 127.0.0.1:${at} cookie ${name} backup`),
    '',
  ].join('\n');
}
