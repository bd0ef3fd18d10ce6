import { Migration } from '@mikro-orm/migrations';

export class Migration20261128001830_admin_chat_reads extends Migration {

  override name = 'Migration20261128001830_admin_chat_reads';

  override up(): void | Promise<void> {
    this.addSql(`create table "audit"."admin_chat_read" ("id" serial primary key, "event_id" uuid not null, "admin_id" int not null, "admin_name" text not null, "match_id" int not null, "what" text not null, "attachment_id" int null, "at" timestamptz not null);`);
    this.addSql(`alter table "audit"."admin_chat_read" add constraint "admin_chat_read_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "admin_chat_read_at_id_index" on "audit"."admin_chat_read" ("at", "id");`);

    this.addSql(`alter table "audit"."admin_chat_read" add constraint "admin_chat_read_what_check" check ("what" in ('chat', 'attachment'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit"."admin_chat_read" cascade;`);
  }

}
