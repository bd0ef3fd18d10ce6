import { Migration } from '@mikro-orm/migrations';

export class Migration20261125152338_chat extends Migration {

  override name = 'Migration20261125152338_chat';

  override up(): void | Promise<void> {
    this.addSql(`create table "exchange"."chat_message" ("id" serial primary key, "match_id" int not null, "kind" text not null, "author_id" int null, "body" text not null, "event" text null, "subject_id" int null, "created_at" timestamptz not null);`);
    this.addSql(`create index "chat_message_match_id_id_index" on "exchange"."chat_message" ("match_id", "id");`);

    this.addSql(`alter table "exchange"."exchange_match" add "requester_paid_at" timestamptz null, add "matcher_paid_at" timestamptz null;`);

    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_kind_check" check ("kind" in ('text', 'system'));`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_event_check" check ("event" in ('accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "exchange"."chat_message" cascade;`);

    this.addSql(`alter table "exchange"."exchange_match" drop column "requester_paid_at", drop column "matcher_paid_at";`);
  }

}
