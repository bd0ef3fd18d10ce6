import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { Consumer, Producer } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithInfra, startKafka } from './index.ts';
import type { KafkaCluster } from './index.ts';

describeWithInfra(['kafka'], 'startKafka', () => {
  let cluster: KafkaCluster;
  let kafka: Kafka;
  let producer: Producer;
  let consumer: Consumer | undefined;
  beforeAll(async () => {
    cluster = await startKafka();
    kafka = new Kafka({ clientId: 'testkit-test', brokers: cluster.brokers, logLevel: logLevel.NOTHING });
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  }, 30_000);
  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await cluster?.stop();
  });

  it('reports its brokers', () => {
    expect(cluster.brokers.length).toBeGreaterThan(0);
    for (const broker of cluster.brokers) expect(broker).toMatch(/^[\w.-]+:\d+$/);
  });

  it('accepts produce and delivers to a consumer group', async () => {
    const topic = `orders-${Date.now()}`;
    await producer.send({
      topic,
      acks: -1,
      messages: [
        { key: 'a', value: 'first' },
        { key: 'b', value: 'second' },
        { key: 'c', value: 'third' },
      ],
    });
    consumer = kafka.consumer({ groupId: `g-${topic}`, sessionTimeout: 10_000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer!
        .run({
          eachMessage: async ({ message }) => {
            received.push(String(message.value));
            if (received.length === 3) resolve();
          },
        })
        .catch(reject);
    });
    expect(received.sort()).toEqual(['first', 'second', 'third']);
  }, 45_000);

  it('auto-creates topics with 4 partitions (mock cluster) or the broker default', async () => {
    const topic = `auto-${Date.now()}`;
    await producer.send({ topic, messages: [{ value: 'x' }] });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics[0]?.partitions.length).toBeGreaterThan(0);
    } finally {
      await admin.disconnect();
    }
  });
});
