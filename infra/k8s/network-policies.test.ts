/**
 * The NetworkPolicies (base/network-policies.yaml, and where the example overlay puts the datastores), read the way a
 * cluster applies them: a connection is made when the source's egress policies allow it and the destination's
 * ingress policies do. The test evaluates the rendered policies for every pair of processes and for the pods and
 * addresses around them (the Ingress controller, Prometheus, the cluster DNS, the datastores, the internet, strangers)
 * and compares with what the code needs: who calls whom is each service's callService/callRoute (CALLS below).
 *
 * Simplifications, each on the safe side of what CNIs do: pods are matched by selectors only, never by ipBlock; traffic
 * from pods outside the namespace is not limited by their own egress policies.
 */
import { beforeAll, expect, it } from 'vitest';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import { ServiceNames } from '@puente/contracts';
import { PROCESSES, type ProcessName } from '../compose/process-secrets.ts';
import { containerOf, describeWithKubectl, renderBoth, type K8sObject, type Rendered } from './render.ts';

/** Whom each process calls (the gateway proxies to every service; grep callService( and callRoute( for the rest). */
const CALLS: Record<ProcessName, ProcessName[]> = {
  gateway: [...ServiceNames],
  identity: ['accounts', 'exchange', 'rating', 'notification', 'subscription', 'audit'], // a user's data, account deletion
  accounts: ['identity'], // its projection's snapshot
  exchange: ['identity', 'accounts'], // users, a match's bank details, the projections' snapshots
  rating: ['identity', 'exchange'], // its projection's snapshot, the match being rated
  notification: ['identity', 'accounts'], // the digest's recipients, account holders' snapshot
  subscription: [],
  audit: [],
};

const NAMESPACE = 'puente';

type LabelSelector = NonNullable<INetworkPolicyPeer['podSelector']>;

interface Endpoint {
  what: string;
  namespace: string;
  labels: Record<string, string>;
  /** For an address outside the cluster's pods. */
  ip?: string;
  ports?: { name?: string; port: number }[];
}

/** The datastores each process uses (its settings: DATABASE_URL, REDIS_URL, KAFKA_BROKERS, SMTP_URL, OTLP). */
const DATASTORES: Record<string, { port: number; users: readonly ProcessName[] }> = {
  postgres: { port: 5432, users: ServiceNames },
  redis: { port: 6379, users: PROCESSES },
  kafka: { port: 9092, users: PROCESSES },
  smtp: { port: 465, users: ['identity', 'notification'] },
  otlp: { port: 4318, users: PROCESSES },
};

/** Where the datastores are: pods of those names in the namespace (base), the example overlay's servers. */
const DATASTORE_AT: Record<'base' | 'overlay', Record<string, Omit<Endpoint, 'what'>>> = {
  base: Object.fromEntries(Object.keys(DATASTORES).map((name) => [name, { namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': name } }])),
  overlay: {
    postgres: { namespace: '', labels: {}, ip: '10.20.0.10' },
    redis: { namespace: '', labels: {}, ip: '10.20.0.11' },
    kafka: { namespace: '', labels: {}, ip: '10.20.1.2' },
    smtp: { namespace: '', labels: {}, ip: '198.51.100.25' },
    otlp: { namespace: 'observability', labels: { 'app.kubernetes.io/name': 'opentelemetry-collector' } },
  },
};

const INGRESS_CONTROLLER: Endpoint = { what: 'the Ingress controller', namespace: 'ingress-nginx', labels: { 'app.kubernetes.io/name': 'ingress-nginx' } };
const PROMETHEUS: Endpoint = { what: 'Prometheus', namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };
const KUBE_DNS: Endpoint = { what: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
const STRANGERS: Endpoint[] = [
  { what: 'a pod of another namespace named like ours', namespace: 'elsewhere', labels: { 'app.kubernetes.io/name': 'gateway', 'app.kubernetes.io/part-of': 'puente' } },
  { what: 'another pod of kube-system', namespace: 'kube-system', labels: { 'k8s-app': 'metrics-server' } },
  { what: 'another pod of this namespace', namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': 'debug-shell' } },
];
const INTERNET: Endpoint = { what: 'a public address', namespace: '', labels: {}, ip: '203.0.113.10' };
const CLOUD_METADATA: Endpoint = { what: 'the cloud metadata address', namespace: '', labels: {}, ip: '169.254.169.254' };
const PRIVATE_ADDRESS: Endpoint = { what: 'a private address', namespace: '', labels: {}, ip: '10.99.0.5' };

// ---------------------------------------------------------------------------------------------------------------
// Evaluating the policies
// ---------------------------------------------------------------------------------------------------------------

function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = key in labels;
    const ok = operator === 'In' ? has && values.includes(labels[key]!)
      : operator === 'NotIn' ? !has || !values.includes(labels[key]!)
        : operator === 'Exists' ? has
          : operator === 'DoesNotExist' ? !has
            : (() => { throw new Error(`unknown selector operator ${operator}`); })();
    if (!ok) return false;
  }
  return true;
}

function ipv4(ip: string): number | null {
  const parts = ip.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts.reduce((n, p) => n * 256 + p, 0) : null;
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const a = ipv4(ip);
  const b = ipv4(base!);
  if (a === null || b === null) return false; // IPv6 blocks: none of the addresses here
  const size = 2 ** (32 - Number(bits));
  return Math.floor(a / size) === Math.floor(b / size);
}

function peerMatches(peer: INetworkPolicyPeer, policyNamespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock) {
    return endpoint.ip !== undefined && inCidr(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c) => inCidr(endpoint.ip!, c));
  }
  if (endpoint.ip !== undefined) return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': endpoint.namespace })
    : endpoint.namespace === policyNamespace;
  return namespaceOk && selects(peer.podSelector, endpoint.labels);
}

function portMatches(ports: INetworkPolicyPort[] | undefined, destination: Endpoint, port: number, protocol: string): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    const number = typeof p.port === 'number' ? p.port : destination.ports?.find((q) => q.name === p.port)?.port;
    if (number === undefined) return false;
    return p.endPort ? port >= number && port <= p.endPort : port === number;
  });
}

type Policy = INetworkPolicy & K8sObject;

const typesOf = (policy: Policy) => policy.spec!.policyTypes ?? ['Ingress', ...(policy.spec!.egress ? ['Egress'] : [])];
const namespaceOf = (policy: Policy) => policy.metadata.namespace ?? NAMESPACE;

/** Whether `to` accepts a connection from `from` on port/protocol (its ingress policies; a pod outside: yes). */
function ingressAllows(policies: Policy[], to: Endpoint, from: Endpoint, port: number, protocol = 'TCP'): boolean {
  if (to.ip !== undefined || to.namespace !== NAMESPACE) return true;
  const applying = policies.filter((p) => namespaceOf(p) === to.namespace && selects(p.spec!.podSelector, to.labels) && typesOf(p).includes('Ingress'));
  if (applying.length === 0) return true;
  return applying.some((p) => (p.spec!.ingress ?? []).some((rule) =>
    (!rule.from || rule.from.length === 0 || rule.from.some((peer) => peerMatches(peer, namespaceOf(p), from))) && portMatches(rule.ports, to, port, protocol)));
}

/** Whether `from` may open a connection to `to` on port/protocol (its egress policies; a pod outside: yes). */
function egressAllows(policies: Policy[], from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  if (from.ip !== undefined || from.namespace !== NAMESPACE) return true;
  const applying = policies.filter((p) => namespaceOf(p) === from.namespace && selects(p.spec!.podSelector, from.labels) && typesOf(p).includes('Egress'));
  if (applying.length === 0) return true;
  return applying.some((p) => (p.spec!.egress ?? []).some((rule) =>
    (!rule.to || rule.to.length === 0 || rule.to.some((peer) => peerMatches(peer, namespaceOf(p), to))) && portMatches(rule.ports, to, port, protocol)));
}

function connects(policies: Policy[], from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  return egressAllows(policies, from, to, port, protocol) && ingressAllows(policies, to, from, port, protocol);
}

/** A process's pod: its labels and named ports, as its Deployment makes them. */
function podOf(rendered: Rendered, proc: ProcessName): Endpoint & { http: number; metrics: number } {
  const deployment = rendered.deploymentOf(proc);
  const ports = (containerOf(deployment).ports ?? []).map((p) => ({ name: p.name, port: p.containerPort }));
  const port = (name: string) => ports.find((p) => p.name === name)!.port;
  return { what: proc, namespace: NAMESPACE, labels: deployment.spec!.template.metadata!.labels!, ports, http: port('http'), metrics: port('metrics') };
}

// ---------------------------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------------------------

describeWithKubectl('NetworkPolicies (infra/k8s)', () => {
  let rendered: Record<'base' | 'overlay', Rendered>;

  beforeAll(() => {
    rendered = renderBoth();
  }, 120_000);

  for (const which of ['base', 'overlay'] as const) {
    const policies = () => rendered[which].networkPolicies as Policy[];
    const pods = () => PROCESSES.map((p) => podOf(rendered[which], p));

    it(`${which}: denies everything by default, in and out, for every pod of the namespace`, () => {
      const denyAll = policies().filter((p) => Object.keys(p.spec!.podSelector ?? {}).length === 0
        && typesOf(p).includes('Ingress') && typesOf(p).includes('Egress') && !p.spec!.ingress && !p.spec!.egress);
      expect(denyAll.map((p) => p.metadata.name)).toEqual(['default-deny']);
      // The pod of a stranger in the namespace can neither be reached nor reach anything.
      const stranger = STRANGERS.find((s) => s.namespace === NAMESPACE)!;
      for (const pod of pods()) {
        expect([pod.what, connects(policies(), stranger, pod, pod.http), connects(policies(), pod, stranger, 8080)]).toEqual([pod.what, false, false]);
      }
    });

    it(`${which}: each process reaches exactly the services it calls, and each service accepts exactly its callers`, () => {
      const all = pods();
      for (const from of all) {
        for (const to of all) {
          const calls = CALLS[from.what as ProcessName].includes(to.what as ProcessName);
          expect([from.what, '→', to.what, egressAllows(policies(), from, to, to.http), ingressAllows(policies(), to, from, to.http)])
            .toEqual([from.what, '→', to.what, calls, calls]);
        }
      }
    });

    it(`${which}: only the Ingress controller reaches the gateway, on its http port, and nothing else from outside`, () => {
      const all = pods();
      for (const pod of all) {
        expect([pod.what, connects(policies(), INGRESS_CONTROLLER, pod, pod.http)]).toEqual([pod.what, pod.what === 'gateway']);
        expect([pod.what, connects(policies(), INGRESS_CONTROLLER, pod, pod.metrics)]).toEqual([pod.what, false]);
        for (const stranger of STRANGERS) expect([stranger.what, pod.what, connects(policies(), stranger, pod, pod.http)]).toEqual([stranger.what, pod.what, false]);
        expect([pod.what, connects(policies(), INTERNET, pod, pod.http)]).toEqual([pod.what, false]);
      }
    });

    it(`${which}: the monitoring namespace alone scrapes every metrics port, and reaches nothing else`, () => {
      const all = pods();
      for (const pod of all) {
        expect([pod.what, connects(policies(), PROMETHEUS, pod, pod.metrics), connects(policies(), PROMETHEUS, pod, pod.http)]).toEqual([pod.what, true, false]);
        for (const other of all) expect([other.what, pod.what, connects(policies(), other, pod, pod.metrics)]).toEqual([other.what, pod.what, false]);
        for (const stranger of STRANGERS) expect([stranger.what, pod.what, connects(policies(), stranger, pod, pod.metrics)]).toEqual([stranger.what, pod.what, false]);
      }
    });

    it(`${which}: every process resolves names through kube-dns (UDP and TCP 53), and only there`, () => {
      for (const pod of pods()) {
        expect([pod.what, egressAllows(policies(), pod, KUBE_DNS, 53, 'UDP'), egressAllows(policies(), pod, KUBE_DNS, 53, 'TCP')]).toEqual([pod.what, true, true]);
        expect([pod.what, egressAllows(policies(), pod, KUBE_DNS, 443)]).toEqual([pod.what, false]);
        for (const stranger of STRANGERS) expect([pod.what, stranger.what, egressAllows(policies(), pod, stranger, 53, 'UDP')]).toEqual([pod.what, stranger.what, false]);
        expect([pod.what, egressAllows(policies(), pod, INTERNET, 53, 'UDP')]).toEqual([pod.what, false]);
      }
    });

    it(`${which}: each process reaches the datastores it uses (PostgreSQL, Redis, Kafka, SMTP, OTLP) on their ports, and no other`, () => {
      for (const pod of pods()) {
        for (const [name, { port, users }] of Object.entries(DATASTORES)) {
          const server: Endpoint = { what: name, ...DATASTORE_AT[which][name]! };
          expect([pod.what, name, egressAllows(policies(), pod, server, port)]).toEqual([pod.what, name, users.includes(pod.what as ProcessName)]);
          expect([pod.what, name, 'port 22', egressAllows(policies(), pod, server, 22)]).toEqual([pod.what, name, 'port 22', false]);
        }
      }
    });

    it(`${which}: identity, exchange and subscription reach public HTTPS (Google, the rate provider, Stripe); nothing reaches private or metadata addresses`, () => {
      for (const pod of pods()) {
        expect([pod.what, egressAllows(policies(), pod, INTERNET, 443)]).toEqual([pod.what, ['identity', 'exchange', 'subscription'].includes(pod.what)]);
        expect([pod.what, egressAllows(policies(), pod, INTERNET, 80)]).toEqual([pod.what, false]);
        for (const port of [80, 443]) {
          expect([pod.what, port, egressAllows(policies(), pod, CLOUD_METADATA, port), egressAllows(policies(), pod, PRIVATE_ADDRESS, port)]).toEqual([pod.what, port, false, false]);
        }
      }
    });
  }

  it('overlay: the datastores are addresses or namespaces outside this one (patched over the base\'s in-namespace pods)', () => {
    const byName = new Map((rendered.overlay.networkPolicies as Policy[]).map((p) => [p.metadata.name, p]));
    for (const name of Object.keys(DATASTORES)) {
      const peers = (byName.get(name)?.spec?.egress ?? []).flatMap((rule) => rule.to ?? []);
      expect([name, peers.length > 0, peers.every((peer) => peer.ipBlock !== undefined || peer.namespaceSelector !== undefined)]).toEqual([name, true, true]);
    }
  });
});
