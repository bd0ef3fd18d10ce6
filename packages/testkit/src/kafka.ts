import { setTimeout as sleep } from 'node:timers/promises';
import { availabilityOf, localKcatBinary } from './availability.ts';
import { startKafkaContainer } from './containers.ts';
import { spawnManaged } from './process.ts';
import type { KafkaCluster } from './types.ts';

/**
 * A Kafka cluster: KAFKA_BROKERS (comma-separated) if set, else librdkafka's in-memory mock cluster (3 brokers)
 * hosted by a kcat process, else an apache/kafka:3.9 (KRaft) container.
 *
 * Mock-cluster limits: no CreateTopics (admin.createTopics fails), topics auto-create with 4 partitions, no
 * idempotent/transactional producers. Every start gives a new, empty cluster on new ports.
 */
export async function startKafka(): Promise<KafkaCluster> {
  const availability = availabilityOf('kafka');
  switch (availability.how) {
    case 'env': {
      const brokers = (process.env.KAFKA_BROKERS as string)
        .split(',')
        .map((b) => b.trim())
        .filter((b) => b !== '');
      return { brokers, stop: async () => {} };
    }
    case 'local':
      return startMockKafka();
    case 'container':
      return startKafkaContainer();
    case 'none':
      throw new Error(`No Kafka available: ${availability.hint}`);
  }
}

const BOOTSTRAP = /(?:bootstrap\.servers=|replaced with )(\d[\d.]*:\d+(?:,\d[\d.]*:\d+)*)/;

async function startMockKafka(): Promise<KafkaCluster> {
  const bin = localKcatBinary();
  if (!bin) throw new Error('kcat not found');
  let brokers: string[] | null = null;
  let onBrokers: () => void = () => {};
  const found = new Promise<void>((resolve) => {
    onBrokers = resolve;
  });
  let seen = '';
  // kcat runs as an idle *producer* (-P) reading its stdin from a pipe we hold: it produces nothing, and when this
  // process dies in any way (even SIGKILL) the pipe closes, kcat sees EOF and exits, taking the mock cluster along.
  // -q keeps its log down to the one notice line that names the brokers.
  const kcat = spawnManaged(bin, ['-q', '-b', '127.0.0.1:1', '-P', '-t', 'warmup', '-X', 'test.mock.num.brokers=3'], {
    stdio: ['pipe', 'ignore', 'pipe'],
    reaper: false,
    onOutput: (text) => {
      if (brokers) return;
      seen = (seen + text).slice(-4096);
      const m = BOOTSTRAP.exec(seen);
      if (m?.[1]) {
        brokers = m[1].split(',');
        onBrokers();
      }
    },
  });
  const settled = new AbortController(); // clears the timer once kcat named the brokers or exited
  const outcome = await Promise.race([
    found.then(() => 'ready' as const),
    kcat.exited.then(() => 'exited' as const),
    sleep(10_000, 'timeout' as const, { signal: settled.signal }),
  ]).finally(() => settled.abort());
  if (outcome !== 'ready' || !brokers) {
    await kcat.stop('SIGKILL');
    throw new Error(`kcat mock cluster did not start (${outcome}):\n${kcat.output()}`);
  }
  kcat.unref();
  // SIGKILL: the cluster is only memory, and kcat ignores SIGTERM while it blocks reading stdin.
  return { brokers, stop: () => kcat.stop('SIGKILL') };
}
