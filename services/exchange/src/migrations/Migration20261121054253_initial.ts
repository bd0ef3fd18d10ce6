import { Migration } from '@mikro-orm/migrations';

export class Migration20261121054253_initial extends Migration {

  override name = 'Migration20261121054253_initial';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "exchange";`);
    this.addSql(`create table "exchange"."inbox_entry" ("consumer" varchar(255) not null, "event_id" uuid not null, "type" varchar(255) not null, "processed_at" timestamptz not null, primary key ("consumer", "event_id"));`);

    this.addSql(`create table "exchange"."outbox_event" ("id" bigserial primary key, "event_id" uuid not null, "topic" varchar(255) not null, "type" varchar(255) not null, "aggregate_id" varchar(255) not null, "envelope" jsonb not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null);`);
    this.addSql(`alter table "exchange"."outbox_event" add constraint "outbox_event_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "outbox_event_published_at_index" on "exchange"."outbox_event" ("published_at");`);

    this.addSql(`create table "exchange"."relay_lease" ("name" varchar(255) not null, "owner" varchar(255) not null, "expires_at" timestamptz not null, primary key ("name"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "exchange"."inbox_entry" cascade;`);
    this.addSql(`drop table if exists "exchange"."outbox_event" cascade;`);
    this.addSql(`drop table if exists "exchange"."relay_lease" cascade;`);

    this.addSql(`drop schema if exists "exchange";`);
  }

}
