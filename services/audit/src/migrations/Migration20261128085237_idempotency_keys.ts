import { Migration } from '@mikro-orm/migrations';

export class Migration20261128085237_idempotency_keys extends Migration {

  override name = 'Migration20261128085237_idempotency_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "audit"."idempotency_key" ("user_id" int not null, "key" varchar(255) not null, "request" varchar(255) not null, "status" int null, "body" text null, "created_at" timestamptz not null, primary key ("user_id", "key"));`);
    this.addSql(`create index "idempotency_key_created_at_index" on "audit"."idempotency_key" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit"."idempotency_key" cascade;`);
  }
}
