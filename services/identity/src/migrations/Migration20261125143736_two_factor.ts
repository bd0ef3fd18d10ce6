import { Migration } from '@mikro-orm/migrations';

export class Migration20261125143736_two_factor extends Migration {

  override name = 'Migration20261125143736_two_factor';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."two_factor" ("user_id" int not null, "sealed_secret" text not null, "enabled_at" timestamptz null, "last_used_step" bigint null, "recovery_code_hashes" jsonb not null, "failed_codes" int not null default 0, "failed_since" timestamptz null, "created_at" timestamptz not null, primary key ("user_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."two_factor" cascade;`);
  }

}
