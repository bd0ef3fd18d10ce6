/**
 * Idempotent consumption. applyOnce() records (consumer, event id) in the service's inbox inside the same
 * transaction as the handler's changes (and any outbox events the handler stages): a redelivered event finds
 * its row and is skipped; a handler that throws rolls back the inbox row too, so the retry applies it.
 */
import type { EventEnvelope } from '@puente/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';

export async function applyOnce(
  em: EntityManager, consumer: string, event: EventEnvelope, apply: (tx: EntityManager) => Promise<void>,
): Promise<boolean> {
  const schema = String(em.config.get('schema') ?? 'public').replace(/"/g, '');
  return em.transactional(async (tx) => {
    const res = await tx.execute<{ affectedRows?: number }>(
      `insert into "${schema}"."inbox_entry" (consumer, event_id, type, processed_at) values (?, ?, ?, now()) on conflict do nothing`,
      [consumer, event.id, event.type], 'run');
    if ((res.affectedRows ?? 0) === 0) return false;
    await apply(tx);
    return true;
  });
}
