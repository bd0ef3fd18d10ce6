import { Migration } from '@mikro-orm/migrations';

export class Migration20261125143752_who_may_take extends Migration {

  override name = 'Migration20261125143752_who_may_take';

  override up(): void | Promise<void> {
    this.addSql(`create table "exchange"."block" ("blocker_id" int not null, "blocked_id" int not null, "created_at" timestamptz not null, primary key ("blocker_id", "blocked_id"));`);
    this.addSql(`create index "block_blocked_id_blocker_id_index" on "exchange"."block" ("blocked_id", "blocker_id");`);

    this.addSql(`alter table "exchange"."exchange_request" add "min_trust_level" text null, add "verified_only" boolean not null default false;`);
    this.addSql(`alter table "exchange"."exchange_request" add constraint "exchange_request_min_trust_level_check" check ("min_trust_level" in ('Bronze', 'Silver', 'Gold', 'Platinum'));`);

    this.addSql(`alter table "exchange"."trader" add "email_verified" boolean not null default false, add "phone_verified" boolean not null default false, add "id_verified" boolean not null default false, add "bank_verified" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "exchange"."block" cascade;`);

    this.addSql(`alter table "exchange"."exchange_request" drop constraint "exchange_request_min_trust_level_check";`);
    this.addSql(`alter table "exchange"."exchange_request" drop column "min_trust_level", drop column "verified_only";`);

    this.addSql(`alter table "exchange"."trader" drop column "email_verified", drop column "phone_verified", drop column "id_verified", drop column "bank_verified";`);
  }

}
