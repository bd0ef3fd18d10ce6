import { Migration } from '@mikro-orm/migrations';

export class Migration20261123231256_payments extends Migration {

  override name = 'Migration20261123231256_payments';

  override up(): void | Promise<void> {
    this.addSql(`create table "subscription"."provider_event" ("id" text not null, "type" text not null, "received_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "subscription"."test_subscription" ("id" text not null, "user_id" int not null, "customer_id" text not null, "client_secret" text not null, "status" text not null, "current_period_end" timestamptz null, "cancel_at_period_end" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "test_subscription_user_id_index" on "subscription"."test_subscription" ("user_id");`);
    this.addSql(`alter table "subscription"."test_subscription" add constraint "test_subscription_client_secret_unique" unique ("client_secret");`);

    this.addSql(`alter table "subscription"."subscription" drop constraint "subscription_status_check";`);
    // Free users were 'active' on the free plan; the status is now the premium subscription's: they have none.
    this.addSql(`update "subscription"."subscription" set "status" = 'none' where "tier" = 'free' and "status" = 'active';`);
    this.addSql(`alter table "subscription"."subscription" add "cancel_at_period_end" boolean not null default false, add "customer_id" text null, add "provider_subscription_id" text null, add "last_event_at" bigint not null default '0';`);
    this.addSql(`alter table "subscription"."subscription" alter column "status" set default 'none';`);
    this.addSql(`alter table "subscription"."subscription" add constraint "subscription_provider_subscription_id_unique" unique ("provider_subscription_id");`);
    this.addSql(`alter table "subscription"."subscription" add constraint "subscription_status_check" check ("status" in ('none', 'incomplete', 'active', 'past_due', 'cancelled'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "subscription"."provider_event" cascade;`);
    this.addSql(`drop table if exists "subscription"."test_subscription" cascade;`);

    this.addSql(`alter table "subscription"."subscription" drop constraint "subscription_provider_subscription_id_unique";`);
    this.addSql(`alter table "subscription"."subscription" drop constraint "subscription_status_check";`);
    this.addSql(`alter table "subscription"."subscription" drop column "cancel_at_period_end", drop column "customer_id", drop column "provider_subscription_id", drop column "last_event_at";`);
    this.addSql(`alter table "subscription"."subscription" alter column "status" set default 'active';`);
    this.addSql(`alter table "subscription"."subscription" add constraint "subscription_status_check" check ("status" in ('active', 'cancelled', 'past_due'));`);
  }

}
