/**
 * What a fault cost in events, counted in the database the services share in the fault tests: the outbox rows
 * committed after a mark, whether each was published, and whether each of its consumers applied it once (their
 * inbox tables). The consumers are the services' own declarations.
 */
import type pg from 'pg';
import { Events, ServiceNames, type ServiceName } from '@puente/contracts';
import { serviceDefinitions } from '../services.ts';

/** The last outbox row of each service named: what is committed after it is the fault's to deliver. */
export type OutboxMark = Partial<Record<ServiceName, number>>;

export interface Deliveries { published: number; lost: string[]; duplicates: string[] }

/** Which services consume each event type, as the services are defined with this environment. */
export function consumersOfEvents(env: Record<string, string | undefined>): Map<string, ServiceName[]> {
  const consumers = new Map<string, ServiceName[]>();
  for (const def of Object.values(serviceDefinitions(env))) {
    for (const c of def.consumers ?? []) {
      const type = Events[c.event].type;
      consumers.set(type, [...new Set([...(consumers.get(type) ?? []), def.name])]);
    }
  }
  return consumers;
}

export async function markOutboxes(db: pg.Client, services: readonly ServiceName[] = ServiceNames): Promise<OutboxMark> {
  const mark: OutboxMark = {};
  for (const service of services) mark[service] = Number((await db.query<{ id: string }>(`select coalesce(max(id), 0) as id from ${service}.outbox_event`)).rows[0]?.id);
  return mark;
}

/** Each event committed since the mark: published? applied by each of its consumers, once? */
export async function deliveries(db: pg.Client, mark: OutboxMark, consumersOf: Map<string, ServiceName[]>): Promise<Deliveries> {
  const lost: string[] = [];
  const duplicates: string[] = [];
  let published = 0;
  for (const [service, after] of Object.entries(mark)) {
    const { rows } = await db.query<{ event_id: string; type: string; published: boolean }>(
      `select event_id, type, published_at is not null as published from ${service}.outbox_event where id > $1`, [after]);
    for (const row of rows) {
      if (row.published) published++;
      else lost.push(`${row.type} ${row.event_id}: not published`);
      for (const consumer of consumersOf.get(row.type) ?? []) {
        const applied = Number((await db.query<{ n: string }>(`select count(*) as n from ${consumer}.inbox_entry where event_id = $1`, [row.event_id])).rows[0]?.n);
        if (applied === 0) lost.push(`${row.type} ${row.event_id}: not applied by ${consumer}`);
        if (applied > 1) duplicates.push(`${row.type} ${row.event_id}: applied ${applied} times by ${consumer}`);
      }
    }
  }
  return { published, lost, duplicates };
}

/** Milliseconds as seconds, for the printed figures. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
