// Which kind of server start*() would use, decided synchronously from env vars and files on disk (no processes).
import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { findBinary, isRoot, lookupUser, postgresBinDirs } from './process.ts';
import type { Infra, InfraAvailability } from './types.ts';

export const INSTALL_HINT = 'apt-get install postgresql redis-server kcat';

const ENV_VAR: Record<Infra, string> = { postgres: 'DATABASE_URL', redis: 'REDIS_URL', kafka: 'KAFKA_BROKERS' };

export function localPostgresBinaries(): { initdb: string; postgres: string } | null {
  const dirs = postgresBinDirs();
  const initdb = findBinary('initdb', dirs);
  const postgres = findBinary('postgres', dirs);
  if (!initdb || !postgres) return null;
  if (isRoot && !lookupUser('postgres')) return null; // postgres refuses to run as root: we need that OS user
  return { initdb, postgres };
}

export function localRedisBinary(): string | null {
  return findBinary('redis-server');
}

export function localKcatBinary(): string | null {
  return findBinary('kcat') ?? findBinary('kafkacat');
}

let dockerCache: string | null | undefined;

/**
 * Cheap guess whether testcontainers could reach a container engine: the places its runtime strategies look
 * (DOCKER_HOST, ~/.testcontainers.properties, the Docker sockets). Only file checks; a configured engine that does
 * not answer makes start*() fail with testcontainers' own error, which is the right message then.
 */
export function dockerEndpoint(): string | null {
  if (dockerCache !== undefined) return dockerCache;
  const candidates: (string | undefined)[] = [process.env.DOCKER_HOST];
  try {
    const props = readFileSync(join(homedir(), '.testcontainers.properties'), 'utf8');
    const m = /^\s*(?:docker\.host|tc\.host)\s*=\s*(\S+)/m.exec(props);
    candidates.push(m?.[1]);
  } catch {
    // no properties file
  }
  const sockets = [
    '/var/run/docker.sock',
    process.env.XDG_RUNTIME_DIR && join(process.env.XDG_RUNTIME_DIR, 'docker.sock'),
    join(homedir(), '.docker', 'run', 'docker.sock'),
    join(homedir(), '.docker', 'desktop', 'docker.sock'),
    `/run/user/${userInfo().uid}/docker.sock`,
  ];
  dockerCache = candidates.find((c) => !!c) ?? sockets.find((s) => !!s && existsSync(s)) ?? null;
  return dockerCache;
}

const LOCAL_PACKAGE: Record<Infra, string> = { postgres: 'postgresql', redis: 'redis-server', kafka: 'kcat' };

/** How start<Kind>() would get its server. Synchronous and cheap (env vars and file checks only). */
export function availabilityOf(kind: Infra): InfraAvailability {
  const envVar = ENV_VAR[kind];
  const fromEnv = process.env[envVar];
  if (fromEnv && fromEnv.trim() !== '') {
    return { available: true, how: 'env', hint: `using ${envVar}=${fromEnv}` };
  }
  const local =
    kind === 'postgres' ? localPostgresBinaries() : kind === 'redis' ? localRedisBinary() : localKcatBinary();
  if (local) {
    const what = kind === 'kafka' ? 'librdkafka mock cluster via kcat' : `local ${LOCAL_PACKAGE[kind]} binaries`;
    return { available: true, how: 'local', hint: `throwaway ${kind} server from ${what}` };
  }
  const docker = dockerEndpoint();
  if (docker) {
    return { available: true, how: 'container', hint: `${kind} in a container via testcontainers (${docker})` };
  }
  const rootNote =
    kind === 'postgres' && isRoot && !lookupUser('postgres') && findBinary('initdb', postgresBinDirs())
      ? ' (running as root needs a "postgres" OS user)'
      : '';
  return {
    available: false,
    how: 'none',
    hint: `no ${kind}${rootNote}: install it with \`${INSTALL_HINT}\`, set ${envVar}, or start a Docker engine`,
  };
}
