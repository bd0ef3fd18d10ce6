/**
 * The columns most entities share, as abstract entities (no table of their own) that an entity takes with
 * `extends` (MikroORM's mapped superclass):
 *
 *   defineEntity({ name: 'Thing', tableName: 'thing', extends: BaseEntitySchema, properties: { ... } })
 *
 * - RecordEntitySchema: `id` (serial) and `createdAt`, for rows written once and never changed (audit records).
 * - BaseEntitySchema: those and `updatedAt`, for rows that change.
 * An entity may declare one of these properties itself to refine it (its own declaration wins); an index on one is
 * declared in the entity's `indexes`.
 */
import { defineEntity, p } from '@mikro-orm/postgresql';

export const RecordEntitySchema = defineEntity({
  name: 'RecordEntity',
  abstract: true,
  properties: {
    id: p.integer().primary().autoincrement(),
    /** Set at insert when not given (a record of something that happened earlier gives that time). */
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export const BaseEntitySchema = defineEntity({
  name: 'BaseEntity',
  abstract: true,
  extends: RecordEntitySchema,
  properties: {
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
