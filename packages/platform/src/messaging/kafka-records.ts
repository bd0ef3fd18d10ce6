/**
 * Events as Kafka records: an envelope goes out as JSON keyed by its aggregateId (one aggregate, one partition) with
 * a `type` header; a record comes back as an envelope, or, when it is not one, as a stand-in envelope carrying what
 * was wrong so that it can be dead-lettered.
 */
import type { KafkaMessage, Message } from 'kafkajs';
import { v7 as uuidv7 } from 'uuid';
import { EventEnvelope } from '@puente/contracts';
import { errorMessage } from './kafka-client.ts';
import { producerOfTopic } from './kafka-topics.ts';
import type { EventHeaders } from './bus.ts';

/** Longest raw value quoted in the error of a dead-lettered unreadable record. */
const RAW_VALUE_QUOTE = 500;

/** The records for some events, in order; headers[i] (an event's trace context) go as record headers of events[i]. */
export function toRecords(events: EventEnvelope[], headers?: readonly (EventHeaders | undefined)[]): Message[] {
  return events.map((e, i) => ({ key: e.aggregateId, value: JSON.stringify(e), headers: { ...headers?.[i], type: e.type } }));
}

export type ParsedRecord = { ok: true; event: EventEnvelope } | { ok: false; error: string; standIn: EventEnvelope };

/** Reads a record's value as an envelope; for an unreadable one, builds a stand-in envelope to dead-letter. */
export function parseRecord(topic: string, partition: number, message: KafkaMessage): ParsedRecord {
  const raw = message.value?.toString('utf8') ?? null;
  let reason: string;
  if (raw === null) {
    reason = 'record has no value';
  } else {
    try {
      const result = EventEnvelope.safeParse(JSON.parse(raw));
      if (result.success) return { ok: true, event: result.data };
      reason = `not an event envelope: ${truncate(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), 300)}`;
    } catch (err) {
      reason = `value is not JSON: ${errorMessage(err)}`;
    }
  }
  const quoted = raw === null ? 'null' : truncate(raw, RAW_VALUE_QUOTE);
  const error = `unreadable record at ${topic}/${partition}@${message.offset}: ${reason}; raw value: ${quoted}`;
  const timestamp = Number(message.timestamp);
  const standIn: EventEnvelope = {
    id: uuidv7(),
    type: 'platform.record.unreadable',
    version: 1,
    occurredAt: new Date(Number.isFinite(timestamp) && timestamp > 0 ? timestamp : Date.now()).toISOString(),
    producer: producerOfTopic(topic),
    aggregateId: message.key?.toString('utf8') || `${topic}/${partition}@${message.offset}`,
    payload: null,
  };
  return { ok: false, error, standIn };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
