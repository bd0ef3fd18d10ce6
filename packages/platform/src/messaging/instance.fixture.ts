/**
 * Another instance of a service, as a process of its own, for the tests of what instances share (outbox.test.ts,
 * bus.test.ts, jobs/bullmq.test.ts): a test SIGKILLs it mid-work, as a crash or the kernel's OOM killer would, and
 * checks what the instances left alive do. `node instance.fixture.ts <role>` with its settings in the environment
 * says what it does as JSON lines on stdout; startInstance() is the test's side.
 *
 * - relay: an outbox relay on SCHEMA of DATABASE_URL publishing to KAFKA_BROKERS (OUTBOX_LEASE_MS, OUTBOX_POLL_MS);
 * - member: a member of consumer group GROUP reading TOPIC (KAFKA_SESSION_TIMEOUT_MS), saying each event it handled;
 * - worker: a BullMQ worker of QUEUE on REDIS_URL (JOB_LOCK_MS) whose job `hang` says it runs and never ends.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { ormOptions } from '../db/database.ts';
import { BullMqJobQueue } from '../jobs/bullmq.ts';
import { defineJob } from '../jobs/port.ts';
import { KafkaBus } from './kafka.ts';
import { OutboxRelay } from './outbox.ts';

export type Role = 'relay' | 'member' | 'worker';

/** What an instance says: it is ready (a member: it joined its group), it handled an event, a job runs. */
export type Said = { said: 'ready' } | { said: 'handled'; id: string } | { said: 'running'; jobId: string };

export interface Instance {
  pid: number;
  said: Said[];
  /** Resolves with the first thing said that matches, waiting for it if need be. */
  heard(matches: (s: Said) => boolean, timeoutMs?: number): Promise<Said>;
  /** SIGKILL: no shutdown, no goodbye to the group, the lease or the job's lock. */
  kill(): Promise<void>;
}

export async function startInstance(role: Role, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), role], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const said: Said[] = [];
  const listeners = new Set<() => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    said.push(JSON.parse(line) as Said);
    for (const notify of listeners) notify();
  });
  const instance: Instance = {
    pid: child.pid!,
    said,
    heard: (matches, timeoutMs = 30_000) => new Promise((resolve, reject) => {
      const check = () => {
        const found = said.find(matches);
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => { cleanup(); reject(new Error(`the ${role} instance did not say it within ${timeoutMs} ms`)); }, timeoutMs);
      const cleanup = () => { clearTimeout(timer); listeners.delete(check); };
      listeners.add(check);
      void exited.then(() => { cleanup(); reject(new Error(`the ${role} instance exited`)); });
      check();
    }),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  await instance.heard((s) => s.said === 'ready');
  return instance;
}

const say = (s: Said) => process.stdout.write(`${JSON.stringify(s)}\n`);
const setting = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

async function runRelay(): Promise<void> {
  const orm = await MikroORM.init(ormOptions({ url: setting('DATABASE_URL'), schema: setting('SCHEMA'), entities: [] }));
  const bus = new KafkaBus({ brokers: setting('KAFKA_BROKERS').split(','), clientId: 'relay-instance' });
  new OutboxRelay({
    orm, schema: setting('SCHEMA'), bus, pollMs: Number(setting('OUTBOX_POLL_MS')), leaseMs: Number(setting('OUTBOX_LEASE_MS')),
  }).start();
  say({ said: 'ready' });
}

async function runMember(): Promise<void> {
  const sessionTimeoutMs = Number(setting('KAFKA_SESSION_TIMEOUT_MS'));
  const bus = new KafkaBus({
    brokers: setting('KAFKA_BROKERS').split(','), clientId: 'member-instance', sessionTimeoutMs,
    heartbeatIntervalMs: Math.floor(sessionTimeoutMs / 6), rebalanceTimeoutMs: 2 * sessionTimeoutMs,
  });
  await bus.subscribe({ group: setting('GROUP'), topics: [setting('TOPIC')], handle: async (e) => { say({ said: 'handled', id: e.id }); } });
  say({ said: 'ready' });
}

async function runWorker(): Promise<void> {
  const queue = new BullMqJobQueue<object>({ redisUrl: setting('REDIS_URL'), queueName: setting('QUEUE'), lockMs: Number(setting('JOB_LOCK_MS')) });
  queue.register(defineJob<z.ZodObject, object>({
    name: 'hang', schema: z.object({}), attempts: 1, timeoutMs: 600_000,
    handle: async (_data, ctx) => {
      say({ said: 'running', jobId: ctx.job.id });
      await new Promise<never>(() => {});
    },
  }));
  await queue.start({});
  say({ said: 'ready' });
}

if (import.meta.main) {
  const roles: Record<Role, () => Promise<void>> = { relay: runRelay, member: runMember, worker: runWorker };
  await roles[process.argv[2] as Role]();
}
