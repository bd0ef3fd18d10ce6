/**
 * The monitoring configuration stays true to the code, since no Docker engine runs it here: Prometheus scrapes every
 * process at the metrics port compose gives it (never the gateway's published port), the Grafana dashboard queries
 * only metrics the platform defines, from the provisioned datasource, and the compose file with its Prometheus and
 * Grafana services is valid (`docker-compose config`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ServiceNames } from '@puente/contracts';
import { Metrics } from '@puente/platform';
import { composeConfig, hasDockerCompose, throwawaySecrets } from './compose/compose-config.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const PROCESSES = ['gateway', ...ServiceNames];

interface ComposeService { environment?: Record<string, string>; ports?: string[]; volumes?: string[] }
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };

interface Panel { title: string; type: string; datasource?: { uid: string }; targets?: { expr: string; datasource?: { uid: string } }[] }
const dashboard = JSON.parse(read('infra/grafana/dashboards/puente.json')) as { uid: string; panels: Panel[] };

describe('Prometheus scrape config (infra/prometheus/prometheus.yml)', () => {
  it('scrapes each process at the METRICS_PORT compose gives it, which is not the port it serves its API on', () => {
    const config = parse(read('infra/prometheus/prometheus.yml')) as { scrape_configs: { static_configs: { targets: string[] }[]; metrics_path?: string }[] };
    const targets = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((s) => s.targets)).sort();
    const expected = PROCESSES.map((proc) => {
      const env = compose.services[proc]!.environment!;
      expect([proc, env.METRICS_HOST]).toEqual([proc, '0.0.0.0']);
      expect(env.METRICS_PORT, `${proc}: metrics apart from its API`).not.toBe(env.PORT);
      return `${proc}:${env.METRICS_PORT}`;
    }).sort();
    expect(targets).toEqual(expected);
    expect(config.scrape_configs.every((job) => (job.metrics_path ?? '/metrics') === '/metrics')).toBe(true);
    // The gateway publishes its API port alone: its metrics stay inside the compose network.
    expect(compose.services.gateway!.ports).toEqual(['${GATEWAY_PORT:-8080}:8080']);
  });
});

describe('Grafana (infra/grafana)', () => {
  const defined = (() => {
    const names = new Set<string>();
    for (const metric of new Metrics().registry.getMetricsAsArray()) {
      const { name, type } = metric as unknown as { name: string; type: string };
      names.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
    }
    return names;
  })();

  it('queries only metrics the platform defines, each panel from the provisioned Prometheus datasource', () => {
    const datasources = parse(read('infra/grafana/provisioning/datasources/prometheus.yml')) as { datasources: { uid: string; url: string }[] };
    const uid = datasources.datasources[0]!.uid;
    expect(datasources.datasources[0]!.url).toBe('http://prometheus:9090');
    const queried = dashboard.panels.filter((p) => p.type !== 'row');
    expect(queried.length).toBeGreaterThan(0);
    const unknown: string[] = [];
    for (const panel of queried) {
      expect([panel.title, panel.datasource?.uid]).toEqual([panel.title, uid]);
      for (const target of panel.targets ?? []) {
        expect([panel.title, target.datasource?.uid ?? uid]).toEqual([panel.title, uid]);
        for (const name of target.expr.match(/\b(?:puente|nodejs|process)_[a-z0-9_]+/g) ?? []) if (!defined.has(name)) unknown.push(`${panel.title}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('covers request durations, event-loop lag, pool, outbox, consumers, jobs, /ws sockets and the business counters', () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr).join('\n');
    const wanted = [
      'puente_http_request_duration_seconds_bucket', 'nodejs_eventloop_lag_p99_seconds', 'puente_db_pool_connections',
      'puente_outbox_backlog', 'puente_outbox_oldest_age_seconds', 'puente_consumer_lag', 'puente_dead_letters_total',
      'puente_jobs', 'puente_ws_sockets_open', 'puente_requests_posted_total', 'puente_matches_total', 'puente_completions_total',
      'puente_ratings_total', 'puente_signups_total', 'puente_failed_logins_total',
    ];
    expect(wanted.filter((name) => !exprs.includes(name))).toEqual([]);
  });

  it('mounts the provisioning and dashboards folders that exist here', () => {
    const mounts = ['grafana', 'prometheus'].flatMap((s) => compose.services[s]!.volumes ?? []).filter((v) => v.startsWith('./'));
    expect(mounts.length).toBe(3);
    for (const mount of mounts) expect([mount, existsSync(join(root, mount.split(':')[0]!))]).toEqual([mount, true]);
  });
});

describe('the compose file with Prometheus and Grafana', () => {
  // CI installs docker-compose (.ci/run); elsewhere the check needs it on the PATH.
  it.skipIf(!hasDockerCompose && process.env.CI !== 'true')('is valid (docker-compose config)', () => {
    // Compose refuses to start without its secrets: throwaway ones for the check.
    const config = composeConfig(throwawaySecrets(), { extra: ['--services'] });
    expect(config.split('\n')).toEqual(expect.arrayContaining(['prometheus', 'grafana', ...PROCESSES]));
  });
});
