// Container fallback (testcontainers), used only when no env URL and no local binaries exist but a container engine
// seems configured. testcontainers is imported lazily: it is slow to load and useless without an engine.
import { freePort } from './process.ts';
import type { KafkaCluster, RedisServer } from './types.ts';

type Testcontainers = typeof import('testcontainers'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- a lazy import's type

async function tc(): Promise<Testcontainers> {
  return import('testcontainers');
}

export async function startPostgresContainer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await tc();
  const container = await new GenericContainer('postgres:16-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_USER: 'postgres' })
    .withCommand([
      'postgres',
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      '-c', 'full_page_writes=off',
      '-c', 'max_connections=200',
    ])
    .withTmpFs({ '/var/lib/postgresql/data': 'rw' })
    .withExposedPorts(5432)
    // the image's init script runs a temporary server first: the second "ready" is the real one
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const url = `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  return { url, stop: async () => void (await container.stop()) };
}

export async function startRedisContainer(): Promise<RedisServer> {
  const { GenericContainer, Wait } = await tc();
  const container = await new GenericContainer('redis:7-alpine')
    .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
    .withExposedPorts(6379)
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
    .start();
  return {
    url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
    stop: async () => void (await container.stop()),
  };
}

/**
 * Single-node KRaft Kafka. The broker must advertise the address clients reach it on, which is only known after the
 * port is mapped, so we pick a free host port first and bind it explicitly.
 */
export async function startKafkaContainer(): Promise<KafkaCluster> {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await tc();
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  const hostPort = await freePort();
  const container = await new GenericContainer('apache/kafka:3.9.1')
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${host}:${hostPort}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_NUM_PARTITIONS: '4', // same as the mock cluster's auto-created topics
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
    })
    .withExposedPorts({ container: 9092, host: hostPort })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  return { brokers: [`${host}:${hostPort}`], stop: async () => void (await container.stop()) };
}
