/** A service's own table for the messaging tests (outbox.test.ts, changes.test.ts): a note, whose rows show whether a change was committed. */
import { defineEntity, p } from '@mikro-orm/postgresql';

export const NoteSchema = defineEntity({
  name: 'Note',
  tableName: 'note',
  properties: { id: p.integer().primary().autoincrement(), text: p.string() },
});
export class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);
