import { Migration } from '@mikro-orm/migrations';

export class Migration20261121054252_initial extends Migration {

  override name = 'Migration20261121054252_initial';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "identity";`);
    this.addSql(`create table "identity"."inbox_entry" ("consumer" varchar(255) not null, "event_id" uuid not null, "type" varchar(255) not null, "processed_at" timestamptz not null, primary key ("consumer", "event_id"));`);

    this.addSql(`create table "identity"."outbox_event" ("id" bigserial primary key, "event_id" uuid not null, "topic" varchar(255) not null, "type" varchar(255) not null, "aggregate_id" varchar(255) not null, "envelope" jsonb not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null);`);
    this.addSql(`alter table "identity"."outbox_event" add constraint "outbox_event_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "outbox_event_published_at_index" on "identity"."outbox_event" ("published_at");`);

    this.addSql(`create table "identity"."relay_lease" ("name" varchar(255) not null, "owner" varchar(255) not null, "expires_at" timestamptz not null, primary key ("name"));`);

    this.addSql(`create table "identity"."user_account" ("id" serial primary key, "email" varchar(255) not null, "password_hash" varchar(255) null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "profile_image_url" varchar(255) null, "role" text not null default 'user', "referral_code" varchar(255) not null, "referred_by_id" int null, "email_verified" boolean not null default false, "phone_verified" boolean not null default false, "id_verified" boolean not null default false, "bank_verified" boolean not null default false, "trust_rating" numeric(2,1) null, "rating_count" int not null default 0, "transaction_count" int not null default 0, "has_both_accounts" boolean not null default false, "subscription_tier" text not null default 'free', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "identity"."user_account" add constraint "user_account_email_unique" unique ("email");`);
    this.addSql(`alter table "identity"."user_account" add constraint "user_account_referral_code_unique" unique ("referral_code");`);

    this.addSql(`alter table "identity"."user_account" add constraint "user_account_role_check" check ("role" in ('user', 'admin'));`);
    this.addSql(`alter table "identity"."user_account" add constraint "user_account_subscription_tier_check" check ("subscription_tier" in ('free', 'premium'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."inbox_entry" cascade;`);
    this.addSql(`drop table if exists "identity"."outbox_event" cascade;`);
    this.addSql(`drop table if exists "identity"."relay_lease" cascade;`);
    this.addSql(`drop table if exists "identity"."user_account" cascade;`);

    this.addSql(`drop schema if exists "identity";`);
  }

}
