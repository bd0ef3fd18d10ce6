/**
 * A state change and what it caused, as one value: a domain transition returns `changed(value, ...caused)` and
 * ServiceContext.change writes the events among them to the outbox in the transaction that made the change, so a
 * caller cannot make the one without the other. Some changes concern no other service (a notification read, a
 * block): those are local changes, named but never published. A service's version table says which polled-read keys
 * each event and each local change moves (http/versions.ts); the platform bumps them once the change is committed,
 * so no route, job or consumer does.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Events, type EventEnvelope, type EventName, type EventPayload } from '@puente/contracts';
import { readEvent } from './envelope.ts';

/** A change only its own service hears of: named in the service's version table, never written to the outbox. */
export interface LocalChange {
  readonly change: string;
  readonly payload: unknown;
}

/** What a transition caused: events for every service, local changes for its own version table. */
export type Caused = EventEnvelope | LocalChange;

const isLocal = (caused: Caused): caused is LocalChange => 'change' in caused;
const isEvent = (caused: Caused): caused is EventEnvelope => !isLocal(caused);

/**
 * The constructor of one service's local changes, typed by their names and payloads
 * (`const local = localChanges<{ notificationsRead: { userId: number } }>()`).
 */
export function localChanges<L extends Record<string, object>>() {
  return <N extends keyof L & string>(change: N, payload: L[N]): LocalChange => ({ change, payload });
}

export interface Changed<T> {
  readonly value: T;
  readonly events: readonly EventEnvelope[];
  readonly local: readonly LocalChange[];
}

/** A transition's result: what it changed (or answers), the events that announce the change and its local changes. */
export function changed<T>(value: T, ...caused: Caused[]): Changed<T> {
  return { value, events: caused.filter(isEvent), local: caused.filter(isLocal) };
}

type Keys = readonly string[] | Promise<readonly string[]>;

/** The polled-read keys an event moves, read (if need be) in the transaction that wrote or consumed it. */
export type VersionKeys<N extends EventName> = (payload: EventPayload<N>, em: EntityManager) => Keys;

/**
 * A service's polled-read keys by the event that moves them (its own events and the ones it consumes), and by its
 * local changes (`local`, keyed by their names: every local change the service makes must be there).
 */
export type VersionTable<L extends Record<string, object> = Record<string, never>> =
  { readonly [N in EventName]?: VersionKeys<N> } & { readonly local?: { readonly [K in keyof L]: (payload: L[K], em: EntityManager) => Keys } };

/** The keys these events and local changes move by the table, without repeats (evaluated in `em`'s transaction, before the commit). */
export async function keysMovedBy(table: VersionTable | undefined, caused: readonly Caused[], em: EntityManager): Promise<string[]> {
  const keys = new Set<string>();
  for (const one of caused) {
    if (isLocal(one)) {
      const keysOf = table?.local?.[one.change];
      if (!keysOf) throw new Error(`The local change ${one.change} is not in the service's version table`);
      for (const key of await keysOf(one.payload as never, em)) keys.add(key);
      continue;
    }
    if (!table) continue;
    for (const name of Object.keys(table) as (EventName | 'local')[]) {
      if (name === 'local' || Events[name].type !== one.type) continue;
      const payload = readEvent(name, one);
      if (payload === undefined) continue; // another version of the event: the table does not speak of it
      const keysOf = table[name] as VersionKeys<EventName>;
      for (const key of await keysOf(payload, em)) keys.add(key);
    }
  }
  return [...keys];
}
