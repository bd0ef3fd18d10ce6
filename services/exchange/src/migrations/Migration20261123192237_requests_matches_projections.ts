import { Migration } from '@mikro-orm/migrations';

export class Migration20261123192237_requests_matches_projections extends Migration {

  override name = 'Migration20261123192237_requests_matches_projections';

  override up(): void | Promise<void> {
    this.addSql(`create table "exchange"."exchange_match" ("id" serial primary key, "request_id" int not null, "requester_id" int not null, "matcher_id" int not null, "status" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "confirmed_at" timestamptz null, "completed_at" timestamptz null, "ended_at" timestamptz null, "cancelled_by_id" int null, "reminders_sent" int not null default 0);`);
    this.addSql(`create index "exchange_match_requester_id_index" on "exchange"."exchange_match" ("requester_id");`);
    this.addSql(`create index "exchange_match_matcher_id_created_at_index" on "exchange"."exchange_match" ("matcher_id", "created_at");`);
    this.addSql(`create index "exchange_match_status_index" on "exchange"."exchange_match" ("status");`);
    this.addSql(`create unique index "exchange_match_live_request_unique" on "exchange"."exchange_match" ("request_id") where status in ('pending', 'confirmed', 'completed');`);

    this.addSql(`create table "exchange"."exchange_request" ("id" serial primary key, "user_id" int not null, "from_currency" text not null, "to_currency" text not null, "amount" numeric(14,2) not null, "exchange_rate" numeric(12,4) not null, "status" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "open_since" timestamptz not null, "notified_at" timestamptz null);`);
    this.addSql(`create index "exchange_request_status_id_index" on "exchange"."exchange_request" ("status", "id");`);
    this.addSql(`create index "exchange_request_user_id_created_at_index" on "exchange"."exchange_request" ("user_id", "created_at");`);

    this.addSql(`create table "exchange"."projection_backfill" ("name" text not null, "rows" int not null, "completed_at" timestamptz not null, primary key ("name"));`);

    this.addSql(`create table "exchange"."trader" ("user_id" int not null, "first_name" text not null default '', "last_name" text not null default '', "profile_image_url" text null, "trust_rating" numeric(2,1) null, "rating_count" int not null default 0, "transaction_count" int not null default 0, "tier" text not null default 'free', "profile_as_of" timestamptz null, "tier_as_of" timestamptz null, primary key ("user_id"));`);

    this.addSql(`create table "exchange"."trader_account" ("account_id" int not null, "user_id" int not null, "currency" text not null, primary key ("account_id"));`);
    this.addSql(`create index "trader_account_user_id_index" on "exchange"."trader_account" ("user_id");`);

    this.addSql(`alter table "exchange"."exchange_match" add constraint "exchange_match_status_check" check ("status" in ('pending', 'confirmed', 'completed', 'cancelled', 'expired'));`);

    this.addSql(`alter table "exchange"."exchange_request" add constraint "exchange_request_from_currency_check" check ("from_currency" in ('GBP', 'CLP'));`);
    this.addSql(`alter table "exchange"."exchange_request" add constraint "exchange_request_to_currency_check" check ("to_currency" in ('GBP', 'CLP'));`);
    this.addSql(`alter table "exchange"."exchange_request" add constraint "exchange_request_status_check" check ("status" in ('open', 'matched', 'confirmed', 'completed', 'cancelled', 'expired'));`);

    this.addSql(`alter table "exchange"."trader" add constraint "trader_tier_check" check ("tier" in ('free', 'premium'));`);

    this.addSql(`alter table "exchange"."trader_account" add constraint "trader_account_currency_check" check ("currency" in ('GBP', 'CLP'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "exchange"."exchange_match" cascade;`);
    this.addSql(`drop table if exists "exchange"."exchange_request" cascade;`);
    this.addSql(`drop table if exists "exchange"."projection_backfill" cascade;`);
    this.addSql(`drop table if exists "exchange"."trader" cascade;`);
    this.addSql(`drop table if exists "exchange"."trader_account" cascade;`);
  }

}
