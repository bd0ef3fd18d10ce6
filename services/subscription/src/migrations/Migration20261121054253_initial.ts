import { Migration } from '@mikro-orm/migrations';

export class Migration20261121054253_initial extends Migration {

  override name = 'Migration20261121054253_initial';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "subscription";`);
    this.addSql(`create table "subscription"."inbox_entry" ("consumer" varchar(255) not null, "event_id" uuid not null, "type" varchar(255) not null, "processed_at" timestamptz not null, primary key ("consumer", "event_id"));`);

    this.addSql(`create table "subscription"."outbox_event" ("id" bigserial primary key, "event_id" uuid not null, "topic" varchar(255) not null, "type" varchar(255) not null, "aggregate_id" varchar(255) not null, "envelope" jsonb not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null);`);
    this.addSql(`alter table "subscription"."outbox_event" add constraint "outbox_event_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "outbox_event_published_at_index" on "subscription"."outbox_event" ("published_at");`);

    this.addSql(`create table "subscription"."relay_lease" ("name" varchar(255) not null, "owner" varchar(255) not null, "expires_at" timestamptz not null, primary key ("name"));`);

    this.addSql(`create table "subscription"."subscription" ("id" serial primary key, "user_id" int not null, "tier" text not null default 'free', "status" text not null default 'active', "current_period_end" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "subscription"."subscription" add constraint "subscription_user_id_unique" unique ("user_id");`);

    this.addSql(`alter table "subscription"."subscription" add constraint "subscription_tier_check" check ("tier" in ('free', 'premium'));`);
    this.addSql(`alter table "subscription"."subscription" add constraint "subscription_status_check" check ("status" in ('active', 'cancelled', 'past_due'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "subscription"."inbox_entry" cascade;`);
    this.addSql(`drop table if exists "subscription"."outbox_event" cascade;`);
    this.addSql(`drop table if exists "subscription"."relay_lease" cascade;`);
    this.addSql(`drop table if exists "subscription"."subscription" cascade;`);

    this.addSql(`drop schema if exists "subscription";`);
  }

}
