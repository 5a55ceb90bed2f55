// The Kubernetes manifests of examples/kubernetes, checked without a cluster: every YAML
// document against the OpenAPI schema of its kind (kubernetes-models and its Gateway API
// package carry the schemas compiled to validators), field names included, as `kubectl apply`
// refuses a field it does not know; then what a cluster would only show once the room is
// waiting: probes on the server's real paths and port, sizes set, a Service, a budget and an
// Ingress that select the server's pods, the cookie affinity and WebSocket timeouts, the
// Ingress's host allowed by the server, and the overlay that drops the capabilities.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS, HEALTH_PATH, READY_PATH, READY_TIMEOUT_MS } from '@racelab/server';
import { validate as validateHTTPRoute } from '@kubernetes-models/gateway-api/_schemas/IoK8sSigsGatewayApiApisV1HTTPRoute';
import { validate as validateDeployment } from 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment';
import { validate as validateStatefulSet } from 'kubernetes-models/_schemas/IoK8sApiAppsV1StatefulSet';
import { validate as validateConfigMap } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap';
import { validate as validateNamespace } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Namespace';
import { validate as validateSecret } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Secret';
import { validate as validateService } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Service';
import { validate as validateIngress } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1Ingress';
import { validate as validateNetworkPolicy } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1NetworkPolicy';
import { validate as validatePodDisruptionBudget } from 'kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const FOLDER = fileURLToPath(new URL('../../examples/kubernetes/', import.meta.url));
/** Files of the folder that kustomization.yaml leaves out on purpose: alternatives to one it lists. */
const ALTERNATIVES = ['httproute.yaml'];
const KUSTOMIZATION = 'kustomize.config.k8s.io/v1beta1/Kustomization';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
/** What ajv says of one failed check: where, which keyword of the schema, and its parameters. */
interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
/** A compiled schema validator: its errors are ajv's, left on the function after a call, without messages. */
type Validator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/** An ajv error in words, as ajv would put it. */
function words({ instancePath, keyword, params }: SchemaError): string {
  const said: Record<string, string> = {
    required: `must have required property ${String(params.missingProperty)}`,
    type: `must be ${String(params.type)}`,
    enum: `must be one of ${JSON.stringify(params.allowedValues)}`,
    format: `must match format "${String(params.format)}"`,
    pattern: `must match pattern "${String(params.pattern)}"`,
  };
  return `${instancePath || '/'} ${said[keyword] ?? `fails ${keyword} ${JSON.stringify(params)}`}`;
}

const SCHEMAS: Record<string, Validator> = {
  'apps/v1/Deployment': validateDeployment,
  'apps/v1/StatefulSet': validateStatefulSet,
  'v1/ConfigMap': validateConfigMap,
  'v1/Namespace': validateNamespace,
  'v1/Secret': validateSecret,
  'v1/Service': validateService,
  'networking.k8s.io/v1/Ingress': validateIngress,
  'networking.k8s.io/v1/NetworkPolicy': validateNetworkPolicy,
  'policy/v1/PodDisruptionBudget': validatePodDisruptionBudget,
  'gateway.networking.k8s.io/v1/HTTPRoute': validateHTTPRoute,
};

interface Manifest {
  /** file#n: the file under examples/kubernetes and the document's place in it. */
  where: string;
  doc: Obj;
}

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const obj = (value: unknown): Obj => (isObj(value) ? value : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
/** A scalar as YAML wrote it; anything else as JSON, so that a message shows what is there. */
const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : (JSON.stringify(value) ?? '');
const typeOf = (doc: Obj): string => `${text(doc.apiVersion)}/${text(doc.kind)}`;
const nameOf = (doc: Obj): string => text(obj(doc.metadata).name);

/** Every YAML file under the folder, relative to it. */
function yamlFiles(folder: string, under = ''): string[] {
  return readdirSync(path.join(folder, under))
    .sort()
    .flatMap((name) => {
      const relative = path.join(under, name);
      if (statSync(path.join(folder, relative)).isDirectory()) return yamlFiles(folder, relative);
      return /\.ya?ml$/.test(name) ? [relative] : [];
    });
}

/** The documents of one file; a YAML error is an error here, with the file's name. */
function readManifests(file: string): Manifest[] {
  const documents = parseAllDocuments(readFileSync(path.join(FOLDER, file), 'utf8'));
  if (!Array.isArray(documents)) return [];
  return documents.map((document, n) => {
    if (document.errors.length > 0) throw new Error(`${file}#${n}: ${document.errors.map((e) => e.message).join('; ')}`);
    return { where: `${file}#${n}`, doc: obj(document.toJS() as unknown) };
  });
}

/**
 * Validates a document against its kind's schema, and reports every field the schema does not
 * know. The compiled validators read each property their schema names, and enumerate the keys
 * of a map (labels, annotations, resource amounts): a key of an object that was neither read
 * nor enumerated is a field that kind does not have.
 */
function schemaErrors(doc: Obj): string[] {
  const validate = SCHEMAS[typeOf(doc)];
  if (!validate) return [`no schema for ${typeOf(doc)}: add it to SCHEMAS (or fix apiVersion and kind)`];
  const seen = new Map<object, { path: string; read: Set<string>; enumerated: boolean }>();
  const proxies = new WeakMap<object, object>();
  const watch = (value: unknown, at: string): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const known = proxies.get(value);
    if (known) return known;
    const state = { path: at, read: new Set<string>(), enumerated: false };
    seen.set(value, state);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        const field = Reflect.get(target, key, receiver) as unknown;
        if (typeof key !== 'string' || !Object.hasOwn(target, key)) return field;
        state.read.add(key);
        return watch(field, `${at}/${key}`);
      },
      ownKeys(target) {
        state.enumerated = true;
        return Reflect.ownKeys(target);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  const valid = validate(watch(doc, ''));
  const errors = valid ? [] : (validate.errors ?? []).map(words);
  for (const [value, state] of seen) {
    if (Array.isArray(value) || state.enumerated) continue;
    for (const key of Object.keys(value)) if (!state.read.has(key)) errors.push(`${state.path}/${key} is not a field of ${typeOf(doc)}`);
  }
  return errors;
}

/** Applies a JSON patch (RFC 6902: add, replace, remove), as kustomize's `patches` do. */
function applyPatch(doc: Obj, operations: Json[]): Obj {
  const patched = structuredClone(doc);
  for (const operation of operations.map(obj)) {
    const keys = text(operation.path)
      .split('/')
      .slice(1)
      .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    let parent: Json = patched;
    for (const key of keys) parent = (Array.isArray(parent) ? parent[Number(key)] : obj(parent)[key]) ?? null;
    if (parent === null || typeof parent !== 'object') throw new Error(`no such path: ${text(operation.path)}`);
    const value = structuredClone(operation.value ?? null);
    if (Array.isArray(parent)) {
      const at = last === '-' ? parent.length : Number(last);
      if (operation.op === 'remove') parent.splice(at, 1);
      else parent.splice(at, operation.op === 'replace' ? 1 : 0, value);
    } else if (operation.op === 'remove') delete parent[last];
    else parent[last] = value;
  }
  return patched;
}

/** The documents a kustomization builds: its resources, its overlays' bases included, patched. */
function build(folder: string): Obj[] {
  const [kustomization] = readManifests(path.join(folder, 'kustomization.yaml'));
  const spec = kustomization!.doc;
  const docs = list(spec.resources).flatMap((resource) => {
    const target = path.join(folder, text(resource));
    return statSync(path.join(FOLDER, target)).isDirectory() ? build(target) : readManifests(target).map((m) => m.doc);
  });
  return docs.map((doc) =>
    list(spec.patches).reduce<Obj>((patched, patch) => {
      const target = obj(obj(patch).target);
      if (target.kind !== doc.kind || target.name !== nameOf(doc)) return patched;
      return applyPatch(patched, list(parseAllDocuments(text(obj(patch).patch))[0]?.toJS()));
    }, doc),
  );
}

const byKind = (docs: Obj[], kind: string): Obj[] => docs.filter((doc) => doc.kind === kind);
const one = (docs: Obj[], kind: string, name: string): Obj => {
  const found = byKind(docs, kind).find((doc) => nameOf(doc) === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found;
};
const podSpec = (workload: Obj): Obj => obj(obj(obj(workload.spec).template).spec);
const podLabels = (workload: Obj): Obj => obj(obj(obj(obj(workload.spec).template).metadata).labels);
const containers = (workload: Obj): Obj[] => list(podSpec(workload).containers).map(obj);
/** Does a label selector (matchLabels, or a Service's plain map) select pods with these labels? */
const selects = (selector: Obj, labels: Obj): boolean =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);
/** The container port a probe or Service names, by name or by number. */
const portOf = (container: Obj, port: Json | undefined): number | undefined =>
  list(container.ports)
    .map(obj)
    .find((p) => p.name === port || p.containerPort === port)?.containerPort as number | undefined;
const envOf = (container: Obj, name: string): Json | undefined =>
  list(container.env)
    .map(obj)
    .find((e) => e.name === name)?.value;

const files = yamlFiles(FOLDER);
const manifests = files.flatMap(readManifests);
const base = build('');
const deployment = one(base, 'Deployment', 'racelab');
const server = containers(deployment)[0]!;

describe('examples/kubernetes', () => {
  it('has the manifests a deployment needs, each listed by kustomization.yaml or an alternative to one that is', () => {
    expect(new Set(base.map((doc) => doc.kind))).toEqual(
      new Set([
        'Namespace',
        'ConfigMap',
        'Secret',
        'Deployment',
        'Service',
        'Ingress',
        'PodDisruptionBudget',
        'StatefulSet',
        'NetworkPolicy',
      ]),
    );
    const listed = list(readManifests('kustomization.yaml')[0]!.doc.resources).map(String);
    const own = files.filter((file) => !file.includes(path.sep) && file !== 'kustomization.yaml');
    expect(own.filter((file) => !listed.includes(file) && !ALTERNATIVES.includes(file))).toEqual([]);
  });

  it.each(manifests.filter((m) => typeOf(m.doc) !== KUSTOMIZATION).map((m) => [m.where, m.doc] as const))(
    '%s is valid against its kind’s schema',
    (where, doc) => {
      expect(schemaErrors(doc), `${where}:\n${JSON.stringify(doc, null, 2)}`).toEqual([]);
    },
  );

  it('finds a wrong type, a missing field and an unknown field', () => {
    const broken = applyPatch(deployment, [
      { op: 'replace', path: '/spec/replicas', value: 'two' },
      { op: 'remove', path: '/spec/selector' },
      { op: 'add', path: '/spec/template/spec/containers/0/readinesProbe', value: {} },
    ]);
    expect(schemaErrors(broken)).toEqual([
      '/spec must have required property selector',
      '/spec/replicas must be integer',
      '/spec/template/spec/containers/0/readinesProbe is not a field of apps/v1/Deployment',
    ]);
    expect(schemaErrors({ apiVersion: 'apps/v1beta1', kind: 'Deployment' })).toEqual([
      'no schema for apps/v1beta1/Deployment: add it to SCHEMAS (or fix apiVersion and kind)',
    ]);
  });

  it('probes the server on /readyz and /healthz at its port, within timeouts the server answers in', () => {
    const port = Number(envOf(server, 'PORT'));
    expect(envOf(server, 'HOST')).toBe('0.0.0.0');
    for (const [probe, path] of [
      ['readinessProbe', READY_PATH],
      ['livenessProbe', HEALTH_PATH],
      ['startupProbe', HEALTH_PATH],
    ] as const) {
      const httpGet = obj(obj(server[probe]).httpGet);
      expect(httpGet.path, probe).toBe(path);
      expect(portOf(server, httpGet.port), probe).toBe(port);
      expect(Number(obj(server[probe]).timeoutSeconds) * 1000, probe).toBeGreaterThan(READY_TIMEOUT_MS);
    }
  });

  it('gives every container probes and resource requests, and the server room to stop', () => {
    for (const workload of [...byKind(base, 'Deployment'), ...byKind(base, 'StatefulSet')]) {
      for (const container of containers(workload)) {
        const at = `${nameOf(workload)}/${text(container.name)}`;
        expect(container.readinessProbe, at).toBeDefined();
        expect(container.livenessProbe, at).toBeDefined();
        expect(Object.keys(obj(obj(container.resources).requests)).sort(), at).toEqual(['cpu', 'memory']);
        expect(obj(obj(container.resources).limits).memory, at).toBeDefined();
      }
    }
    expect(Number(obj(deployment.spec).replicas)).toBeGreaterThanOrEqual(2);
    const pause = Number(list(obj(obj(obj(server.lifecycle).preStop).exec).command)[1]);
    const closing = DEFAULT_LIMITS.closeGraceMs / 1000;
    expect(Number(podSpec(deployment).terminationGracePeriodSeconds)).toBeGreaterThanOrEqual(pause + closing + 15);
  });

  it('adds the capabilities real partitions need, and its overlay runs without them', () => {
    expect(obj(obj(server.securityContext).capabilities).add).toEqual(['NET_ADMIN', 'SYS_ADMIN']);
    expect(envOf(server, 'RACELAB_REAL_FAULTS')).toBeUndefined();
    const overlay = build('without-capabilities');
    for (const doc of overlay) expect(schemaErrors(doc), nameOf(doc)).toEqual([]);
    const plain = containers(one(overlay, 'Deployment', 'racelab'))[0]!;
    expect(envOf(plain, 'RACELAB_REAL_FAULTS')).toBe('off');
    expect(obj(plain.securityContext).capabilities).toBeUndefined();
    expect(obj(plain.securityContext).appArmorProfile).toBeUndefined();
    expect(obj(one(overlay, 'Namespace', 'racelab').metadata).labels).toEqual({ 'pod-security.kubernetes.io/enforce': 'baseline' });
  });

  it('selects the server’s pods by its Service and its PodDisruptionBudget, and none of the stores’', () => {
    const labels = podLabels(deployment);
    const service = one(base, 'Service', 'racelab');
    const pdb = one(base, 'PodDisruptionBudget', 'racelab');
    expect(selects(obj(obj(deployment.spec).selector).matchLabels as Obj, labels)).toBe(true);
    expect(selects(obj(obj(service.spec).selector), labels)).toBe(true);
    expect(selects(obj(obj(obj(pdb.spec).selector).matchLabels), labels)).toBe(true);
    for (const store of byKind(base, 'StatefulSet')) {
      expect(selects(obj(obj(service.spec).selector), podLabels(store)), nameOf(store)).toBe(false);
      expect(selects(obj(obj(obj(pdb.spec).selector).matchLabels), podLabels(store)), nameOf(store)).toBe(false);
    }
    for (const port of list(obj(service.spec).ports).map(obj)) expect(portOf(server, port.targetPort)).toBe(7070);
  });

  it('keeps a page on its server by a cookie, keeps WebSockets open an hour, and names a host the server allows', () => {
    const ingress = one(base, 'Ingress', 'racelab');
    const annotations = obj(obj(ingress.metadata).annotations);
    expect(annotations['nginx.ingress.kubernetes.io/affinity']).toBe('cookie');
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThanOrEqual(3600);
    const allowed = text(obj(one(base, 'ConfigMap', 'racelab').data).RACELAB_ALLOWED_HOSTS).split(',');
    const service = one(base, 'Service', 'racelab');
    for (const rule of list(obj(ingress.spec).rules).map(obj)) {
      expect(allowed).toContain(rule.host);
      for (const p of list(obj(rule.http).paths).map(obj)) {
        const backend = obj(obj(p.backend).service);
        expect(backend.name).toBe(nameOf(service));
        expect(list(obj(service.spec).ports).map((port) => obj(port).name)).toContain(obj(backend.port).name);
      }
    }
  });

  it('routes the HTTPRoute alternative to the Service, with a session cookie and no request timeout', () => {
    const route = readManifests('httproute.yaml')[0]!.doc;
    const service = one(base, 'Service', 'racelab');
    const [rule] = list(obj(route.spec).rules).map(obj);
    expect(obj(rule!.sessionPersistence).type).toBe('Cookie');
    expect(obj(rule!.timeouts).request).toBe('0s');
    const ports = list(obj(service.spec).ports).map((port) => obj(port).port);
    for (const ref of list(rule!.backendRefs).map(obj)) {
      expect(ref.name).toBe(nameOf(service));
      expect(ports).toContain(ref.port);
    }
  });

  it('lets only the server’s pods reach the stores, which point where the Secret says', () => {
    const policy = one(base, 'NetworkPolicy', 'stores-from-racelab-only');
    const storePods = obj(obj(policy.spec).podSelector).matchLabels as Obj;
    for (const store of byKind(base, 'StatefulSet')) expect(selects(storePods, podLabels(store)), nameOf(store)).toBe(true);
    expect(selects(storePods, podLabels(deployment))).toBe(false);
    const from = list(obj(list(obj(policy.spec).ingress).map(obj)[0]).from).map(obj);
    expect(from.some((peer) => selects(obj(obj(peer.podSelector).matchLabels), podLabels(deployment)))).toBe(true);
    const urls = obj(one(base, 'Secret', 'racelab-stores').stringData);
    const services = byKind(base, 'Service').map((service) => `${nameOf(service)}:${text(obj(list(obj(service.spec).ports)[0]).port)}`);
    for (const url of [urls.REDIS_URL, urls.DATABASE_URL]) expect(services).toContain(new URL(text(url)).host);
  });
});
