import { Migration } from '@mikro-orm/migrations';

export class Migration20261121061109_attempts extends Migration {

  override name = 'Migration20261121061109_attempts';

  override up(): void | Promise<void> {
    this.addSql(`create table "audit"."login_attempt" ("id" serial primary key, "event_id" uuid not null, "email" text not null, "email_key" text not null, "method" text not null, "status" text not null, "failure_reason" text null, "ip_address" text null, "user_agent" text null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "audit"."login_attempt" add constraint "login_attempt_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "login_attempt_created_at_index" on "audit"."login_attempt" ("created_at");`);
    this.addSql(`create index "login_attempt_email_key_created_at_index" on "audit"."login_attempt" ("email_key", "created_at");`);

    this.addSql(`create table "audit"."signup_attempt" ("id" serial primary key, "event_id" uuid not null, "email" text not null, "email_key" text not null, "step" text not null, "status" text not null, "failure_reason" text null, "referral_code" text null, "ip_address" text null, "user_agent" text null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "audit"."signup_attempt" add constraint "signup_attempt_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "signup_attempt_created_at_index" on "audit"."signup_attempt" ("created_at");`);
    this.addSql(`create index "signup_attempt_email_key_created_at_index" on "audit"."signup_attempt" ("email_key", "created_at");`);

    this.addSql(`alter table "audit"."login_attempt" add constraint "login_attempt_method_check" check ("method" in ('password', 'google'));`);
    this.addSql(`alter table "audit"."login_attempt" add constraint "login_attempt_status_check" check ("status" in ('success', 'failed'));`);

    this.addSql(`alter table "audit"."signup_attempt" add constraint "signup_attempt_step_check" check ("step" in ('request', 'verify'));`);
    this.addSql(`alter table "audit"."signup_attempt" add constraint "signup_attempt_status_check" check ("status" in ('pending', 'failed', 'completed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit"."login_attempt" cascade;`);
    this.addSql(`drop table if exists "audit"."signup_attempt" cascade;`);
  }

}
