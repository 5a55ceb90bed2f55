// docker-compose.yml, checked where Docker is not needed: it parses; the stores run with
// no profile and the racelab server only with the `server` profile; images are pinned to a
// major version; ports are published on 127.0.0.1 only; the server's store URLs name the
// compose file's own services; and every file it builds from exists, with every path the
// Dockerfile copies.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: string[];
  command?: string[];
}
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const services = compose.services;

describe('docker-compose.yml', () => {
  it('has the stores with no profile and the racelab server under the server profile', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'racelab', 'redis', 'redis-replica']);
    const profiled = Object.entries(services)
      .filter(([, s]) => s.profiles)
      .map(([name, s]) => [name, s.profiles]);
    expect(profiled).toEqual([['racelab', ['server']]]);
  });

  it('pins each image to a major version, publishes ports on 127.0.0.1 only, and depends on services it has', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.image) expect(service.image, name).toMatch(/^[a-z0-9-]+:\d+$/);
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
});
