import { Migration } from '@mikro-orm/migrations';

export class Migration20261123193350_fan_out extends Migration {

  override name = 'Migration20261123193350_fan_out';

  override up(): void | Promise<void> {
    this.addSql(`create table "notification"."account_holder" ("account_id" int not null, "user_id" int not null, "currency" text not null, "removed" boolean not null default false, primary key ("account_id"));`);
    this.addSql(`create index "account_holder_user_id_currency_index" on "notification"."account_holder" ("user_id", "currency");`);

    this.addSql(`create table "notification"."notification" ("id" serial primary key, "user_id" int not null, "type" text not null, "content" text not null, "read" boolean not null default false, "reference_id" int null, "created_at" timestamptz not null, "source_event_id" uuid null);`);
    this.addSql(`create index "notification_user_id_id_index" on "notification"."notification" ("user_id", "id");`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_user_id_source_event_id_unique" unique ("user_id", "source_event_id");`);

    this.addSql(`create table "notification"."projection_backfill" ("name" text not null, "rows" int not null, "completed_at" timestamptz not null, primary key ("name"));`);

    this.addSql(`alter table "notification"."account_holder" add constraint "account_holder_currency_check" check ("currency" in ('GBP', 'CLP'));`);

    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "notification"."account_holder" cascade;`);
    this.addSql(`drop table if exists "notification"."notification" cascade;`);
    this.addSql(`drop table if exists "notification"."projection_backfill" cascade;`);
  }

}
