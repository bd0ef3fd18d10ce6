import type { EntityManager } from '@mikro-orm/postgresql';

export const sql = {
  /** An entity's table, schema-qualified, for the few statements written in SQL (the fan-out page). */
  table(em: EntityManager, entity: Parameters<EntityManager['getMetadata']>[0]): string {
    const schema = em.config.get('schema');
    const table = em.getMetadata(entity).tableName;
    return schema ? `"${schema}"."${table}"` : `"${table}"`;
  },
};
