/**
 * A state change and the events it caused, as one value: a domain transition returns `changed(value, ...events)`
 * and ServiceContext.change writes the events to the outbox in the transaction that made the change, so a caller
 * cannot make the one without the other. A service's version table says which polled-read keys each event moves
 * (http/versions.ts); the platform bumps them once the change is committed, so no route, job or consumer does.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Events, type EventEnvelope, type EventName, type EventPayload } from '@puente/contracts';
import { readEvent } from './envelope.ts';

export interface Changed<T> {
  readonly value: T;
  readonly events: readonly EventEnvelope[];
}

/** A transition's result: what it changed (or answers) and the events that announce the change. */
export function changed<T>(value: T, ...events: EventEnvelope[]): Changed<T> {
  return { value, events };
}

/** The polled-read keys an event moves, read (if need be) in the transaction that wrote or consumed it. */
export type VersionKeys<N extends EventName> = (payload: EventPayload<N>, em: EntityManager) => readonly string[] | Promise<readonly string[]>;

/** A service's polled-read keys by the event that moves them (its own events and the ones it consumes). */
export type VersionTable = { readonly [N in EventName]?: VersionKeys<N> };

/** The keys these events move by the table, without repeats (evaluated in `em`'s transaction, before the commit). */
export async function keysMovedBy(table: VersionTable | undefined, events: readonly EventEnvelope[], em: EntityManager): Promise<string[]> {
  if (!table || events.length === 0) return [];
  const keys = new Set<string>();
  for (const event of events) {
    for (const name of Object.keys(table) as EventName[]) {
      if (Events[name].type !== event.type) continue;
      const payload = readEvent(name, event);
      if (payload === undefined) continue; // another version of the event: the table does not speak of it
      const keysOf = table[name] as VersionKeys<EventName>;
      for (const key of await keysOf(payload, em)) keys.add(key);
    }
  }
  return [...keys];
}
