import { Migration } from '@mikro-orm/migrations';

export class Migration20260101000001_tags extends Migration {
  override name = 'Migration20260101000001_tags';

  override up(): void {
    const schema = this.config.get('schema');
    this.addSql(`create type "${schema}"."tag_kind" as enum ('plain', 'bold');`);
    this.addSql(`create table "${schema}"."tag" ("note_id" int not null references "${schema}"."note" ("id"), "kind" "${schema}"."tag_kind" not null);`);
  }
}
