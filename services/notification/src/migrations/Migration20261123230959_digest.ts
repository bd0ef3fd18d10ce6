import { Migration } from '@mikro-orm/migrations';

export class Migration20261123230959_digest extends Migration {

  override name = 'Migration20261123230959_digest';

  override up(): void | Promise<void> {
    this.addSql(`create table "notification"."notification_preference" ("user_id" int not null, "email_digest" boolean not null default true, "last_digest_at" timestamptz null, "digested_through_id" int not null default 0, primary key ("user_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "notification"."notification_preference" cascade;`);
  }

}
