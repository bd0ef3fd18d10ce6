import { Migration } from '@mikro-orm/migrations';

export class Migration20261123183859_rate_history extends Migration {

  override name = 'Migration20261123183859_rate_history';

  override up(): void | Promise<void> {
    this.addSql(`create table "exchange"."exchange_rate" ("id" serial primary key, "rate" numeric(12,4) not null, "source" text not null, "fetched_at" timestamptz not null);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "exchange"."exchange_rate" cascade;`);
  }

}
