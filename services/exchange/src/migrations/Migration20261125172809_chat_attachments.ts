import { Migration } from '@mikro-orm/migrations';

export class Migration20261125172809_chat_attachments extends Migration {

  override name = 'Migration20261125172809_chat_attachments';

  override up(): void | Promise<void> {
    this.addSql(`create table "exchange"."chat_attachment" ("id" serial primary key, "match_id" int not null, "author_id" int not null, "file_name" text not null, "content_type" text not null, "size" int not null, "storage_key" text not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "chat_attachment_author_id_index" on "exchange"."chat_attachment" ("author_id");`);
    this.addSql(`alter table "exchange"."chat_attachment" add constraint "chat_attachment_storage_key_unique" unique ("storage_key");`);

    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_kind_check";`);
    this.addSql(`alter table "exchange"."chat_message" add "attachment_id" int null;`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_kind_check" check ("kind" in ('text', 'attachment', 'system'));`);

    this.addSql(`alter table "exchange"."chat_attachment" add constraint "chat_attachment_content_type_check" check ("content_type" in ('image/png', 'image/jpeg', 'application/pdf'));`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_attachment_check" check (("kind" = 'attachment') = ("attachment_id" is not null));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_attachment_check";`);
    this.addSql(`drop table if exists "exchange"."chat_attachment" cascade;`);

    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_kind_check";`);
    this.addSql(`alter table "exchange"."chat_message" drop column "attachment_id";`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_kind_check" check ("kind" in ('text', 'system'));`);
  }

}
