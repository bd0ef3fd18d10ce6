import { Migration } from '@mikro-orm/migrations';

export class Migration20261128062256_projection_backfill extends Migration {

  override name = 'Migration20261128062256_projection_backfill';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."projection_backfill" ("name" text not null, "rows" int not null, "completed_at" timestamptz not null, primary key ("name"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."projection_backfill" cascade;`);
  }

}
