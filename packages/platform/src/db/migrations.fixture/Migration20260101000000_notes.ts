import { Migration } from '@mikro-orm/migrations';

/** The migration-race test's migrations, in whichever schema the ORM is bound to (one per round). */
export class Migration20260101000000_notes extends Migration {
  override name = 'Migration20260101000000_notes';

  override up(): void {
    const schema = this.config.get('schema');
    this.addSql(`create table "${schema}"."note" ("id" serial primary key, "text" text not null);`);
  }
}
