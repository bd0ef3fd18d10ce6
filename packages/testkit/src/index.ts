// @puente/testkit: real infrastructure for tests (Postgres, Redis, Kafka), started on demand and torn down after,
// the fake servers of what cannot run here (SMTP, Stripe), and a browser-like client of the running app.
//
// Each start*() uses, in order: the URL from the environment (DATABASE_URL, REDIS_URL, KAFKA_BROKERS), a throwaway
// server from local binaries (Debian: postgresql, redis-server, kcat), a testcontainers container if a Docker engine
// is configured. Servers are stopped by stop() and, failing that, when the test process exits.
import { availabilityOf } from './availability.ts';
import type { Infra, InfraAvailability } from './types.ts';

export type { Infra, InfraAvailability, KafkaCluster, PostgresServer, RedisServer, Started, TcpProxy } from './types.ts';
export { startPostgres, databaseUrl, uniqueDatabaseName } from './postgres.ts';
export { startRedis } from './redis.ts';
export { startKafka } from './kafka.ts';
export { startTcpProxy } from './proxy.ts';
export type { ConnectionFilter, TcpProxyOptions } from './proxy.ts';
export { startKafkaBehindProxy } from './kafka-proxy.ts';
export type { ProxiedKafkaCluster } from './kafka-proxy.ts';
export { describeWithInfra, sharedPostgres, useFreshDatabase } from './vitest.ts';
export { decodeHeader, mailsIn, startFakeSmtp } from './fake-smtp.ts';
export type { FakeSmtpServer, FolderMail, ReceivedMail } from './fake-smtp.ts';
export { parseForm as parseStripeForm, startFakeStripe } from './stripe-fake.ts';
export type { FakeStripe, FakeStripeRequest } from './stripe-fake.ts';
export { appClient, overallHealth } from './app-client.ts';
export type { AppClient, CallInit, Person, RunningApp, SignedIn } from './app-client.ts';

/** How start<Kind>() would get its server; synchronous and cheap (env vars and file checks only, no processes). */
export function infraAvailability(kind: Infra): InfraAvailability {
  return availabilityOf(kind);
}

/**
 * The first of a block of 200 fixed ports for a test that needs them (the distributed runner's consecutive service
 * ports): chosen at random below Linux's ephemeral range (32768 and up), where the ports the kernel hands to the
 * testkit's servers and to every client come from, and above the well-known servers' ports.
 */
export function testPortBase(): number {
  return 10_000 + Math.floor(Math.random() * 100) * 200;
}
