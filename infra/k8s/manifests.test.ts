/**
 * The Kubernetes manifests (infra/k8s, README there): the base and the example overlay rendered by `kubectl kustomize`
 * (render.ts), every rendered object validated against the Kubernetes schemas (kubernetes-models), then what a
 * platform team checks before applying them: a Deployment and a Service per process, probes on the right paths,
 * resources, graceful shutdown, a locked-down pod, autoscalers on existing Deployments, secrets only by reference, and
 * every setting a process requires set, read through the processes' own settings schemas (the gateway's, whose module
 * starts the server, by running it). Which Secret reaches which process: secrets.test.ts; the NetworkPolicies:
 * network-policies.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { ServiceNames } from '@puente/contracts';
import { loadConfig, parseServiceUrls, ServiceSettings } from '@puente/platform';
import { SHUTDOWN_GRACE_MS } from '@puente/platform/process';
import { PROCESSES, type ProcessName } from '../compose/process-secrets.ts';
import { PROCESS_SETTINGS, SERVICE_SETTINGS } from '../testing/process-settings.ts';
import {
  BASE, MODELS, OVERLAY, ROOT as root, containerOf, describeWithKubectl, envNamesOf, environmentOf, kubectlVersion, renderBoth, runtimeEnv,
  scriptOf, type K8sObject, type Rendered,
} from './render.ts';

const AUTOSCALED: ProcessName[] = ['gateway', 'exchange'];

/** A name that says the value is a secret: it may only come from a Secret. */
const SECRET_NAME = /SECRET|PASSWORD|ENCRYPTION_KEY|SIGNING_KEY|^DATABASE_URL$|^REDIS_URL$|^SMTP_URL$/;
/** A URL with a password in it (scheme://user:password@host). */
const CREDENTIALS_IN_URL = /\/\/[^/\s@:]*:[^/\s@]+@/;

/** The offending variables of a ConfigError ("  - NAME: message" lines), or [] when the settings load. */
function configErrors(load: () => unknown): string[] {
  try {
    load();
    return [];
  } catch (err) {
    const names = [...(err as Error).message.matchAll(/^\s+- (\w+):/gm)].map((m) => m[1]!);
    return names.length > 0 ? names : [(err as Error).message];
  }
}

/**
 * The gateway's settings schema lives in gateway/src/server.ts, which starts the server when imported: run it with
 * `env` and an invalid PORT, so it stops at its settings and names every variable it refuses (PORT among them).
 */
function gatewayConfigErrors(env: Record<string, string>): string[] {
  const run = spawnSync(process.execPath, [scriptOf('gateway')], { cwd: root, env: { ...env, PORT: 'not-a-port' }, encoding: 'utf8', timeout: 60_000 });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status, `the gateway did not stop at its settings:\n${output.slice(-2000)}`).not.toBe(0);
  expect(output).toContain('Invalid configuration');
  return [...output.matchAll(/^\s+- (\w+):/gm)].map((m) => m[1]!).sort();
}

/** The port a probe or a Service's targetPort names, as a number. */
function portNumber(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function bytes(quantity: string | number | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(String(quantity ?? ''));
  if (!m) throw new Error(`not a memory quantity: ${quantity}`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
}

interface ComposeService { environment?: Record<string, unknown>; command?: string[] }

/** docker-compose.yml's definition of one process, with its anchors merged in. */
function composeService(proc: ProcessName): ComposeService {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const service = compose.services[proc];
  if (!service) throw new Error(`docker-compose.yml has no service ${proc}`);
  return service;
}

// ---------------------------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------------------------

describeWithKubectl('Kubernetes manifests (infra/k8s)', () => {
  let rendered: Record<'base' | 'overlay', Rendered>;

  beforeAll(() => {
    console.log(`[k8s] rendering with ${kubectlVersion()}`);
    rendered = renderBoth();
  }, 120_000);

  describe.each(['base', 'overlay'] as const)('%s', (which) => {
    it('renders only kinds with a known schema, each object valid against the Kubernetes schemas', () => {
      const objects = rendered[which].objects;
      expect(objects.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const o of objects) {
        const validate = MODELS[`${o.apiVersion}/${o.kind}`];
        if (!validate) {
          failures.push(`${o.apiVersion} ${o.kind} ${o.metadata?.name}: no schema known here (add its kubernetes-models class to MODELS)`);
          continue;
        }
        try {
          validate(o);
        } catch (err) {
          failures.push(`${o.kind} ${o.metadata?.name}: ${(err as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('has a Deployment and a Service for the gateway and each service, the Service reaching the process\'s port', () => {
      const r = rendered[which];
      for (const proc of PROCESSES) {
        const deployment = r.deploymentOf(proc);
        const container = containerOf(deployment);
        const podLabels = deployment.spec!.template.metadata?.labels ?? {};
        expect(Object.entries(deployment.spec!.selector.matchLabels ?? {}).every(([k, v]) => podLabels[k] === v), `${proc}: selector matches its pods`).toBe(true);
        expect(existsSync(join(root, scriptOf(proc))), `${scriptOf(proc)} exists`).toBe(true);
        expect(container.args ?? container.command, `${proc} runs as in docker-compose.yml`).toEqual(composeService(proc).command);
        const { PORT, METRICS_PORT } = environmentOf(r, container).values;
        const port = Number(PORT);
        expect(container.ports?.map((p) => `${p.name} ${p.containerPort}`), `${proc} listens on PORT and serves metrics on METRICS_PORT`)
          .toEqual([`http ${port}`, `metrics ${METRICS_PORT}`]);
        const services = r.services.filter((s) => Object.entries(s.spec?.selector ?? {}).every(([k, v]) => podLabels[k] === v));
        expect(services.map((s) => s.metadata.name), `Services selecting ${proc}'s pods`).toEqual([deployment.metadata.name]);
        expect(services[0]!.spec!.ports!.map((p) => portNumber(container, p.targetPort ?? p.port))).toEqual([port]);
      }
      expect(r.deployments).toHaveLength(PROCESSES.length);
    });

    it('tells Prometheus where each pod\'s metrics are (prometheus.io annotations), on a port no Service exposes', () => {
      const r = rendered[which];
      for (const proc of PROCESSES) {
        const deployment = r.deploymentOf(proc);
        const { METRICS_PORT, METRICS_HOST } = environmentOf(r, containerOf(deployment)).values;
        expect([proc, METRICS_HOST, deployment.spec!.template.metadata?.annotations]).toEqual([proc, '0.0.0.0', {
          'prometheus.io/scrape': 'true', 'prometheus.io/port': METRICS_PORT, 'prometheus.io/path': '/metrics',
        }]);
        expect([proc, METRICS_PORT]).toEqual([proc, composeService(proc).environment?.METRICS_PORT]);
      }
      const exposed = r.services.flatMap((s) => s.spec!.ports!.map((p) => String(p.targetPort ?? p.port)));
      expect(exposed.filter((p) => p === 'metrics' || p === '9464')).toEqual([]);
    });

    it('probes: services ready on /ready and alive on /health, the gateway on /health for both (not /api/health)', () => {
      for (const proc of PROCESSES) {
        const container = containerOf(rendered[which].deploymentOf(proc));
        const port = Number(environmentOf(rendered[which], container).values.PORT);
        const probe = (name: 'readinessProbe' | 'livenessProbe' | 'startupProbe') => {
          const p = container[name];
          return p?.httpGet ? `${p.httpGet.path} :${portNumber(container, p.httpGet.port)}` : String(p);
        };
        expect([proc, probe('readinessProbe')]).toEqual([proc, `${proc === 'gateway' ? '/health' : '/ready'} :${port}`]);
        expect([proc, probe('livenessProbe')]).toEqual([proc, `/health :${port}`]);
        // A service listens only after its migrations (a long one on a big table): the startup probe (on /health) must
        // wait at least as long as compose's start_period (60 s) before the liveness probe counts.
        expect([proc, probe('startupProbe')]).toEqual([proc, `/health :${port}`]);
        const startup = container.startupProbe!;
        expect((startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3), `${proc}'s start-up allowance (s)`).toBeGreaterThanOrEqual(proc === 'gateway' ? 30 : 60);
      }
    });

    it('requests CPU and memory for every container, with a memory limit above the request', () => {
      for (const proc of PROCESSES) {
        const { requests, limits } = containerOf(rendered[which].deploymentOf(proc)).resources ?? {};
        expect([proc, requests?.cpu !== undefined, requests?.memory !== undefined, limits?.memory !== undefined]).toEqual([proc, true, true, true]);
        expect(bytes(limits!.memory), `${proc}: memory limit ≥ request`).toBeGreaterThanOrEqual(bytes(requests!.memory));
      }
    });

    it('gives a stopping process more time than its own 15 s forced exit (after the preStop pause)', () => {
      for (const proc of PROCESSES) {
        const deployment = rendered[which].deploymentOf(proc);
        const preStop = containerOf(deployment).lifecycle?.preStop?.exec?.command ?? [];
        const pause = preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
        expect(deployment.spec!.template.spec!.terminationGracePeriodSeconds, proc).toBeGreaterThan(SHUTDOWN_GRACE_MS / 1000 + pause);
      }
    });

    it('runs every process non-root, without privileges, on a read-only root filesystem with emptyDirs where it writes', () => {
      for (const proc of PROCESSES) {
        const pod = rendered[which].deploymentOf(proc).spec!.template.spec!;
        const container = containerOf(rendered[which].deploymentOf(proc));
        expect([proc, pod.securityContext?.runAsNonRoot, pod.securityContext?.runAsUser !== 0, pod.securityContext?.seccompProfile?.type])
          .toEqual([proc, true, true, 'RuntimeDefault']);
        expect([proc, container.securityContext?.readOnlyRootFilesystem, container.securityContext?.allowPrivilegeEscalation, container.securityContext?.capabilities?.drop])
          .toEqual([proc, true, false, ['ALL']]);
        expect(pod.automountServiceAccountToken, `${proc} does not talk to the Kubernetes API`).toBe(false);
        // Where the process writes: /tmp, and every folder a *_DIR setting names (MAIL_DIR: mail without SMTP).
        const emptyDirs = new Set((pod.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
        const writable = (container.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name) && !m.readOnly).map((m) => m.mountPath);
        const dirs = Object.entries(runtimeEnv(rendered[which], proc)).filter(([k]) => k.endsWith('_DIR')).map(([, v]) => v);
        expect([proc, [...dirs, '/tmp'].filter((d) => !writable.includes(d))]).toEqual([proc, []]);
      }
    });

    it('autoscales the gateway and exchange (autoscaling/v2, on CPU) and each autoscaler targets an existing Deployment that leaves replicas to it', () => {
      const r = rendered[which];
      const targets = r.autoscalers.map((hpa) => {
        const ref = hpa.spec!.scaleTargetRef;
        const deployment = r.deployments.find((d) => d.metadata.name === ref.name);
        expect([hpa.metadata.name, hpa.apiVersion, ref.apiVersion, ref.kind, deployment !== undefined]).toEqual([hpa.metadata.name, 'autoscaling/v2', 'apps/v1', 'Deployment', true]);
        expect(deployment!.spec!.replicas, `${ref.name} has replicas, which each apply would reset under its autoscaler`).toBeUndefined();
        expect(hpa.spec!.minReplicas ?? 1).toBeGreaterThanOrEqual(2);
        expect(hpa.spec!.maxReplicas).toBeGreaterThanOrEqual(hpa.spec!.minReplicas ?? 1);
        expect(hpa.spec!.metrics?.map((m) => m.resource?.name)).toContain('cpu');
        expect(containerOf(deployment!).resources?.requests?.cpu, `${ref.name}: CPU utilization needs a CPU request`).toBeDefined();
        return deployment!;
      });
      expect(targets.map((d) => d.metadata.name).sort()).toEqual(AUTOSCALED.map((p) => r.deploymentOf(p).metadata.name).sort());
    });

    it('holds no secret value: no Secret object, secret settings only by secretKeyRef to the operator\'s Secrets, no password in a URL', () => {
      const r = rendered[which];
      expect(r.objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name)).toEqual([]);
      for (const dir of [BASE, OVERLAY]) {
        const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Record<string, unknown>;
        expect(Object.keys(kustomization), `${dir}/kustomization.yaml`).not.toContain('secretGenerator');
      }
      for (const configMap of r.configMaps) {
        for (const [key, value] of Object.entries(configMap.data ?? {})) {
          expect([key, SECRET_NAME.test(key), CREDENTIALS_IN_URL.test(value)]).toEqual([key, false, false]);
        }
      }
      for (const proc of PROCESSES) {
        const { values, secrets, secretEnvFrom } = environmentOf(r, containerOf(r.deploymentOf(proc)));
        expect([proc, secretEnvFrom], 'each process reads only the keys it uses (no envFrom of a Secret)').toEqual([proc, []]);
        const literalSecrets = Object.entries(values).filter(([k, v]) => SECRET_NAME.test(k) || CREDENTIALS_IN_URL.test(v)).map(([k]) => k);
        expect([proc, literalSecrets]).toEqual([proc, []]);
        expect([proc, secrets.filter((s) => s.key !== s.env)]).toEqual([proc, []]);
      }
    });

    it('sets every variable each service requires, with values its settings schemas accept', () => {
      const failures: string[] = [];
      for (const service of ServiceNames) {
        const env = runtimeEnv(rendered[which], service);
        for (const name of [...configErrors(() => loadConfig(ServiceSettings, env)), ...configErrors(() => SERVICE_SETTINGS[service](env))]) failures.push(`${service}: ${name}`);
      }
      expect(failures).toEqual([]);
    });

    it('gives every process at least the variables docker-compose.yml gives it (the unset optional ones aside)', () => {
      for (const proc of PROCESSES) {
        const names = envNamesOf(rendered[which], proc);
        // In compose, a key without a value (or `${X:-}`) passes an optional setting through only when set.
        const composed = Object.entries(composeService(proc).environment ?? {})
          .filter(([, v]) => v !== null && v !== undefined && !/^\$\{\w+:-\}$/.test(String(v))).map(([k]) => k);
        expect([proc, composed.filter((k) => !names.has(k))]).toEqual([proc, []]);
      }
    });

    it('points SERVICE_URLS at the Service of each service, on the port that service listens on', () => {
      const r = rendered[which];
      for (const proc of PROCESSES) {
        const urls = parseServiceUrls(runtimeEnv(r, proc).SERVICE_URLS);
        for (const service of ServiceNames) {
          const url = new URL(urls[service] ?? `http://missing-${service}`);
          const target = r.services.find((s) => s.metadata.name === url.hostname);
          const deployment = r.deploymentOf(service);
          expect([proc, service, target?.metadata.name]).toEqual([proc, service, deployment.metadata.name]);
          expect([proc, service, Number(url.port)]).toEqual([proc, service, target!.spec!.ports![0]!.port]);
        }
      }
    });
  });

  it('the gateway accepts the settings it is given (its own schema, run: only the deliberately bad PORT is refused)', () => {
    for (const which of ['base', 'overlay'] as const) {
      expect([which, gatewayConfigErrors(runtimeEnv(rendered[which], 'gateway'))]).toEqual([which, ['PORT']]);
      expect(configErrors(() => PROCESS_SETTINGS.gateway(runtimeEnv(rendered[which], 'gateway')))).toEqual([]);
    }
  }, 120_000);

  it('the example overlay: everything in namespace puente (restricted pods), the image pinned, replica counts and autoscaler bounds set', () => {
    const { objects } = rendered.overlay;
    const namespaces = objects.filter((o) => o.kind === 'Namespace');
    expect(namespaces.map((n) => [n.metadata.name, n.metadata.labels?.['pod-security.kubernetes.io/enforce']])).toEqual([['puente', 'restricted']]);
    expect(objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== 'puente').map((o) => `${o.kind} ${o.metadata.name}`)).toEqual([]);
    const images = new Set(rendered.overlay.deployments.map((d) => containerOf(d).image));
    expect([...images]).toEqual(['registry.example.com/puente/app:1.0.0']);
    for (const d of rendered.overlay.deployments) {
      const autoscaled = rendered.overlay.autoscalers.some((h) => h.spec!.scaleTargetRef.name === d.metadata.name);
      expect([d.metadata.name, autoscaled || d.spec!.replicas !== undefined]).toEqual([d.metadata.name, true]);
    }
    // The overlay's patches took: each count or bound it sets is the rendered one.
    for (const file of ['replicas.yaml', 'autoscaling.yaml']) {
      for (const doc of parseAllDocuments(readFileSync(join(OVERLAY, file), 'utf8'))) {
        const patch = doc.toJS() as K8sObject & { spec: Record<string, unknown> };
        const target = objects.find((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name) as (K8sObject & { spec: Record<string, unknown> }) | undefined;
        for (const [key, value] of Object.entries(patch.spec)) {
          expect([file, patch.kind, patch.metadata.name, key, target?.spec[key]]).toEqual([file, patch.kind, patch.metadata.name, key, value]);
        }
      }
    }
  });
});
