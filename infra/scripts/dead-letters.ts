/**
 * Replays a consumer group's dead letters once the cause is fixed (distributed mode):
 *   KAFKA_BROKERS=host:9092 npm run dead-letters -- replay <group>
 * <group> is the service that gave up (its consumer group is the service's name, e.g. identity). Each parked event is
 * published again, unchanged, on its topic; groups that applied it skip it (their inbox), the one that failed applies
 * it now. Each dead letter is replayed once: a second run replays only what was parked since.
 */
import { createLogger } from '@puente/platform';
import { KafkaBus, replayDeadLetters } from '@puente/platform/kafka';

const [command, group] = process.argv.slice(2);
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
if (command !== 'replay' || !group) {
  console.error('usage: KAFKA_BROKERS=host:9092 npm run dead-letters -- replay <group>   (the group is the service name, e.g. identity)');
  process.exit(2);
}
if (brokers.length === 0) {
  console.error('KAFKA_BROKERS is required: host:port of the Kafka brokers, comma-separated');
  process.exit(2);
}

const bus = new KafkaBus({ brokers, clientId: 'puente-dead-letters', logger: createLogger({ name: 'dead-letters', level: 'warn' }) });
try {
  console.log(`replaying the dead letters of ${group} (topic puente.dead-letter.${group}) ...`);
  const count = await replayDeadLetters({
    brokers, bus, group,
    onReplayed: ({ event, topic, attempts, error }) => console.log(`  replayed ${event.type} ${event.id} to ${topic} (gave up after ${attempts} attempts: ${error})`),
  });
  console.log(count === 0 ? `nothing to replay for ${group}` : `replayed ${count} dead letter${count === 1 ? '' : 's'} of ${group}`);
} catch (err) {
  console.error(`the replay failed: ${(err as Error).message}. Check KAFKA_BROKERS and that the broker is up, then run it again (what was replayed is not replayed twice).`);
  process.exitCode = 1;
} finally {
  await bus.close();
}
