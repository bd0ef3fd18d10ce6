/**
 * What the Kubernetes tests share: kubectl (a suite that needs it), the base and the example overlay rendered by
 * `kubectl kustomize` (Debian's kubectl 1.20, whose kustomize is v2.0.3, or any newer one), and a process's
 * environment as the kubelet builds it, with valid stand-ins for what the operator creates beside the manifests (the
 * Secrets, one per purpose, and the ConfigMap of public keys: create-secrets.sh).
 *
 * Needs kubectl: `apt-get install kubernetes-client`, or KUBECTL=/path/to/kubectl. Under CI=true a missing kubectl
 * fails the suite instead of skipping it, as @puente/testkit's describeWithInfra does for servers.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace, type INamespace } from 'kubernetes-models/v1/Namespace';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { generateSigningKeys } from '@puente/platform';
import type { ProcessName } from '../compose/process-secrets.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const K8S = join(ROOT, 'infra/k8s');
export const BASE = join(K8S, 'base');
export const OVERLAY = join(K8S, 'overlays/example');
const INSTALL_HINT = 'apt-get install kubernetes-client';

// ---------------------------------------------------------------------------------------------------------------
// kubectl, and a suite that needs it
// ---------------------------------------------------------------------------------------------------------------

function findKubectl(): string | null {
  if (process.env.KUBECTL) return process.env.KUBECTL;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'kubectl'), constants.X_OK);
      return join(dir, 'kubectl');
    } catch {
      // not here
    }
  }
  return null;
}

export const kubectl = findKubectl();

/** `describe` when kubectl is there; otherwise skipped with a message locally, a failing test under CI=true. */
export function describeWithKubectl(name: string, fn: () => void): void {
  if (kubectl) {
    describe(name, fn);
    return;
  }
  const message = `"${name}" needs kubectl, which is not available. Install it with \`${INSTALL_HINT}\` (or set KUBECTL to a kubectl binary).`;
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('requires kubectl', () => {
        throw new Error(message);
      });
    });
    return;
  }
  console.warn(`[k8s] skipping: ${message}`);
  describe.skip(name, fn);
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering and reading the objects
// ---------------------------------------------------------------------------------------------------------------

export interface K8sObject { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } }

/** The schema of every kind the manifests may hold; any other kind fails the validation test. */
export const MODELS: Record<string, (o: K8sObject) => void> = {
  'apps/v1/Deployment': (o) => new Deployment(o as IDeployment).validate(),
  'v1/Service': (o) => new Service(o as IService).validate(),
  'v1/ConfigMap': (o) => new ConfigMap(o as IConfigMap).validate(),
  'v1/Namespace': (o) => new Namespace(o as INamespace).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (o) => new HorizontalPodAutoscaler(o as IHorizontalPodAutoscaler).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (o) => new NetworkPolicy(o as INetworkPolicy).validate(),
};

export function kustomize(dir: string): K8sObject[] {
  const run = spawnSync(kubectl!, ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir} failed (${run.status ?? run.error?.message}):\n${run.stderr}`);
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(run.stdout)) {
    if (doc.errors.length > 0) throw new Error(`kubectl kustomize ${dir} printed invalid YAML: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as K8sObject | null;
    if (value) objects.push(value);
  }
  return objects;
}

/** The base and the overlay, rendered once per test file. */
export function renderBoth(): Record<'base' | 'overlay', Rendered> {
  return { base: new Rendered(kustomize(BASE)), overlay: new Rendered(kustomize(OVERLAY)) };
}

/** Which kubectl renders, and its version: `<path>: Client Version: v1.x`. */
export function kubectlVersion(): string {
  const version = spawnSync(kubectl!, ['version', '--client'], { encoding: 'utf8' });
  return `${kubectl}: ${(version.stdout || version.stderr).split('\n')[0]}`;
}

export class Rendered {
  readonly objects: K8sObject[];
  constructor(objects: K8sObject[]) {
    this.objects = objects;
  }
  ofKind<T>(kind: string): (T & K8sObject)[] {
    return this.objects.filter((o) => o.kind === kind) as (T & K8sObject)[];
  }
  get deployments() { return this.ofKind<IDeployment>('Deployment'); }
  get services() { return this.ofKind<IService>('Service'); }
  get autoscalers() { return this.ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler'); }
  get configMaps() { return this.ofKind<IConfigMap>('ConfigMap'); }
  get networkPolicies() { return this.ofKind<INetworkPolicy>('NetworkPolicy'); }

  /** The Deployment running a process: found by what it runs (`node <its src/server.ts>`), not by its name. */
  deploymentOf(proc: ProcessName): IDeployment & K8sObject {
    const script = scriptOf(proc);
    const found = this.deployments.filter((d) => d.spec?.template.spec?.containers.some((c) => [...(c.command ?? []), ...(c.args ?? [])].includes(script)));
    expect(found.map((d) => d.metadata.name), `Deployments running ${script}`).toHaveLength(1);
    return found[0]!;
  }

  /** A ConfigMap of the manifests, or one the operator creates beside them (OPERATOR.configMaps). */
  configMap(name: string): Pick<IConfigMap, 'data'> {
    const found = this.configMaps.find((c) => c.metadata.name === name) ?? (OPERATOR.configMaps[name] ? { data: OPERATOR.configMaps[name] } : undefined);
    if (!found) throw new Error(`a container reads ConfigMap ${name}, which neither the manifests nor the operator (create-secrets.sh) make`);
    return found;
  }
}

export function scriptOf(proc: ProcessName): string {
  return proc === 'gateway' ? 'gateway/src/server.ts' : `services/${proc}/src/server.ts`;
}

export function containerOf(deployment: IDeployment): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  expect(containers, `${deployment.metadata?.name}'s containers`).toHaveLength(1);
  return containers[0]!;
}

export interface SecretRef { env: string; name: string; key: string; optional: boolean }

/** A container's environment as the kubelet builds it: envFrom first, then env (which wins); secrets apart. */
export function environmentOf(rendered: Rendered, container: IContainer): { values: Record<string, string>; secrets: SecretRef[]; secretEnvFrom: string[] } {
  const values: Record<string, string> = {};
  const secrets: SecretRef[] = [];
  const secretEnvFrom: string[] = [];
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(values, rendered.configMap(from.configMapRef.name!).data ?? {});
    if (from.secretRef) secretEnvFrom.push(from.secretRef.name!);
  }
  for (const variable of container.env ?? []) {
    const source = variable.valueFrom;
    if (!source) values[variable.name] = variable.value ?? '';
    else if (source.secretKeyRef) {
      secrets.push({ env: variable.name, name: source.secretKeyRef.name!, key: source.secretKeyRef.key, optional: source.secretKeyRef.optional ?? false });
    } else if (source.configMapKeyRef) {
      const value = rendered.configMap(source.configMapKeyRef.name!).data?.[source.configMapKeyRef.key];
      if (value !== undefined) values[variable.name] = value;
    } else {
      throw new Error(`${container.name}: ${variable.name} comes from a source this test does not read`);
    }
  }
  return { values, secrets, secretEnvFrom };
}

/**
 * What the operator creates beside the manifests (create-secrets.sh), with valid values: each Secret's keys, the
 * optional Secrets left out, and the ConfigMap of public keys, which match the signing keys.
 */
export const OPERATOR = (() => {
  const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
  const text = () => randomBytes(32).toString('base64url');
  const { signingKeys, publicKeys } = generateSigningKeys();
  const secrets: Record<string, Record<string, string>> = {
    'puente-session': { SESSION_SECRET: text() },
    'puente-bank-keys': { BANK_ENCRYPTION_KEYS: key('k1') },
    'puente-totp-keys': { TOTP_ENCRYPTION_KEYS: key('t1') },
    'puente-oauth-cookie': { OAUTH_COOKIE_SECRET: text() },
    'puente-login-challenge': { LOGIN_CHALLENGE_SECRET: text() },
    'puente-attachment-keys': { ATTACHMENT_ENCRYPTION_KEYS: key('a1') },
    'puente-id-document-keys': { ID_DOCUMENT_KEYS: key('d1') },
    'puente-database': { DATABASE_URL: 'postgres://puente:not-a-real-password@postgres.test:5432/puente' },
    'puente-redis': { REDIS_URL: 'redis://:not-a-real-password@redis.test:6379' },
    'puente-smtp': { SMTP_URL: 'smtps://mailer:not-a-real-password@smtp.test:465' },
    'puente-admin-password': { ADMIN_PASSWORD: 'not-a-real-admin-password' },
  };
  for (const [party, seed] of Object.entries(signingKeys)) secrets[`puente-signing-${party}`] = { SERVICE_SIGNING_KEY: seed };
  return { secrets, configMaps: { 'puente-service-keys': { SERVICE_PUBLIC_KEYS: publicKeys } } as Record<string, Record<string, string>> };
})();

/**
 * What a process sees when the operator created the required Secrets only: the ConfigMaps and literal values, plus
 * the Secrets' values (an optional key left out is not set at all, as the kubelet does).
 */
export function runtimeEnv(rendered: Rendered, proc: ProcessName, secrets: Record<string, Record<string, string>> = OPERATOR.secrets): Record<string, string> {
  const { values, secrets: refs } = environmentOf(rendered, containerOf(rendered.deploymentOf(proc)));
  const env = { ...values };
  for (const ref of refs.filter((r) => !r.optional)) {
    const value = secrets[ref.name]?.[ref.key];
    if (value === undefined) throw new Error(`${proc} requires Secret ${ref.name}'s ${ref.key}: add a valid stand-in to OPERATOR (and the Secret to create-secrets.sh)`);
    env[ref.env] = value;
  }
  return env;
}

/** Every env var a process may receive (literal, ConfigMap or Secret, optional included). */
export function envNamesOf(rendered: Rendered, proc: ProcessName): Set<string> {
  const { values, secrets } = environmentOf(rendered, containerOf(rendered.deploymentOf(proc)));
  return new Set([...Object.keys(values), ...secrets.map((s) => s.env)]);
}
