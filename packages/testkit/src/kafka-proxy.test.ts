import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { Consumer, Producer } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithInfra, infraAvailability, startKafkaBehindProxy } from './index.ts';
import type { ProxiedKafkaCluster } from './index.ts';

describeWithInfra(['kafka'], 'startKafkaBehindProxy', () => {
  let cluster: ProxiedKafkaCluster;
  let kafka: Kafka;
  let producer: Producer;
  let consumer: Consumer | undefined;
  beforeAll(async () => {
    cluster = await startKafkaBehindProxy();
    kafka = new Kafka({
      clientId: 'outage-test',
      brokers: cluster.brokers,
      logLevel: logLevel.NOTHING,
      // fail fast while the brokers are unreachable
      retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 },
      connectionTimeout: 1000,
    });
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  }, 30_000);
  afterAll(async () => {
    cluster?.resume();
    await consumer?.disconnect();
    await producer?.disconnect();
    await cluster?.stop();
  });

  it('exposes only proxy addresses, also in the cluster metadata', async () => {
    const proxyAddresses = cluster.proxies.map((p) => `${p.host}:${p.port}`);
    expect(cluster.brokers).toEqual(proxyAddresses);
    expect([...cluster.brokerAddressMap.values()]).toEqual(proxyAddresses);
    for (const advertised of cluster.brokerAddressMap.keys()) expect(proxyAddresses).not.toContain(advertised);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { brokers } = await admin.describeCluster();
      expect(brokers.map((b) => `${b.host}:${b.port}`).sort()).toEqual([...proxyAddresses].sort());
    } finally {
      await admin.disconnect();
    }
  });

  it('the producer fails while paused and succeeds after resume; a consumer group sees every acked message', async () => {
    const topic = `outage-${Date.now()}`;
    await producer.send({ topic, acks: -1, messages: [{ value: 'before' }] });

    cluster.pause();
    const started = Date.now();
    let failures = 0;
    // Not a wait for something: every send during these 2 s must fail.
    while (Date.now() - started < 2000) {
      await expect(producer.send({ topic, acks: -1, messages: [{ value: 'during' }] })).rejects.toThrow();
      failures++;
    }
    expect(failures).toBeGreaterThan(0);

    cluster.resume();
    await producer.send({ topic, acks: -1, messages: [{ value: 'after' }] });

    // the group coordinator's address (FindCoordinator) goes through the proxies too
    consumer = kafka.consumer({ groupId: `g-${topic}`, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer!
        .run({
          eachMessage: async ({ message }) => {
            received.push(String(message.value));
            if (received.includes('before') && received.includes('after')) resolve();
          },
        })
        .catch(reject);
    });
    expect(received).not.toContain('during');
  }, 45_000);

  it.runIf(infraAvailability('kafka').how === 'local')(
    'works for librdkafka clients too (kcat), which negotiate other protocol versions',
    async () => {
      const run = promisify(execFile);
      const { stdout } = await run('kcat', ['-b', cluster.brokers[0] as string, '-L', '-m', '5'], { encoding: 'utf8' });
      const advertised = [...stdout.matchAll(/broker \d+ at (\S+)/g)].map((m) => m[1]);
      expect(advertised.sort()).toEqual([...cluster.brokers].sort());

      cluster.pause();
      try {
        await expect(run('kcat', ['-b', cluster.brokers[0] as string, '-L', '-m', '1'])).rejects.toThrow();
      } finally {
        cluster.resume();
      }
    },
    20_000,
  );
});
