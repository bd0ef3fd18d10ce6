/**
 * Topics on Kafka: which producer a topic belongs to (`puente.<producer>`), and creating topics as a provisioning
 * step (never required: brokers auto-create topics on first use).
 */
import kafkajs from 'kafkajs';
import type { Logger } from 'pino';
import { ServiceNames, type ServiceName } from '@puente/contracts';
import { PARTITIONS } from './bus.ts';
import { clientConfig, errorMessage } from './kafka-client.ts';

const { Kafka } = kafkajs;

/**
 * Creates the topics with the given partition count if the cluster lets us. A provisioning step, never required
 * for correctness (brokers auto-create topics on first use): returns false, logging at debug, when the cluster
 * cannot create topics (the librdkafka mock cluster has no CreateTopics) or cannot be reached.
 */
export async function ensureTopics(
  brokers: string[], topics: string[], partitions: number = PARTITIONS, opts: { logger?: Logger; clientId?: string } = {},
): Promise<boolean> {
  const kafka = new Kafka({ ...clientConfig(brokers, opts.clientId ?? 'puente-provisioning', undefined, undefined), retry: { retries: 1, initialRetryTime: 200 } });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: partitions })), waitForLeaders: true, timeout: 5_000 });
    return true; // false from createTopics means they existed already: still fine
  } catch (err) {
    opts.logger?.debug({ topics, err: errorMessage(err) }, 'could not create topics; relying on auto-creation');
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** The producer a topic belongs to (`puente.<producer>`); the envelope needs one, so 'audit' when unknown. */
export function producerOfTopic(topic: string): ServiceName {
  const name = topic.startsWith('puente.') ? topic.slice('puente.'.length) : '';
  return (ServiceNames as readonly string[]).includes(name) ? (name as ServiceName) : 'audit';
}
