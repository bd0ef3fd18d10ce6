/** Building events from the catalogue: typed payload, validated at the source, uuid v7 ids. */
import { v7 as uuidv7 } from 'uuid';
import { Events, type EventEnvelope, type EventName, type EventPayload } from '@puente/contracts';
import type { DeadLetterPayload } from './bus.ts';
import { DEAD_LETTER_TYPE } from './bus.ts';

export function makeEvent<N extends EventName>(name: N, aggregateId: string | number, payload: EventPayload<N>): EventEnvelope {
  const contract = Events[name];
  return {
    id: uuidv7(),
    type: contract.type,
    version: contract.version,
    occurredAt: new Date().toISOString(),
    producer: contract.producer,
    aggregateId: String(aggregateId),
    payload: contract.payload.parse(payload),
  };
}

/** Narrows an envelope to a catalogue event, validating its payload; undefined when it is another type. */
export function readEvent<N extends EventName>(name: N, event: EventEnvelope): EventPayload<N> | undefined {
  const contract = Events[name];
  if (event.type !== contract.type || event.version !== contract.version) return undefined;
  return contract.payload.parse(event.payload) as EventPayload<N>;
}

/** The record parked on a dead-letter topic: the original event (and its producer) with why it failed. */
export function deadLetterEvent(payload: DeadLetterPayload): EventEnvelope {
  return {
    id: uuidv7(),
    type: DEAD_LETTER_TYPE,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: payload.event.producer,
    aggregateId: payload.event.id,
    payload,
  };
}
