import { Migration } from '@mikro-orm/migrations';

export class Migration20261125085514_account_deletion extends Migration {

  override name = 'Migration20261125085514_account_deletion';

  override up(): void | Promise<void> {
    this.addSql(`create table "notification"."deleted_account" ("user_id" int not null, "deleted_at" timestamptz not null, primary key ("user_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "notification"."deleted_account" cascade;`);
  }

}
