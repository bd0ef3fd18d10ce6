import { Migration } from '@mikro-orm/migrations';

export class Migration20261121061759_signup_tokens_referrals_verification extends Migration {

  override name = 'Migration20261121061759_signup_tokens_referrals_verification';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."password_reset" ("id" serial primary key, "user_id" int not null, "token_hash" varchar(255) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "password_reset_user_id_index" on "identity"."password_reset" ("user_id");`);
    this.addSql(`alter table "identity"."password_reset" add constraint "password_reset_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "password_reset_expires_at_index" on "identity"."password_reset" ("expires_at");`);

    this.addSql(`create table "identity"."pending_signup" ("id" serial primary key, "email" varchar(255) not null, "password_hash" varchar(255) not null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "referrer_id" int not null, "referral_code" varchar(255) not null, "token_hash" varchar(255) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "identity"."pending_signup" add constraint "pending_signup_email_unique" unique ("email");`);
    this.addSql(`alter table "identity"."pending_signup" add constraint "pending_signup_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "pending_signup_expires_at_index" on "identity"."pending_signup" ("expires_at");`);

    this.addSql(`create table "identity"."referral" ("id" serial primary key, "referrer_id" int not null, "referred_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "referral_referrer_id_index" on "identity"."referral" ("referrer_id");`);
    this.addSql(`alter table "identity"."referral" add constraint "referral_referred_id_unique" unique ("referred_id");`);

    this.addSql(`create table "identity"."verification_request" ("id" serial primary key, "user_id" int not null, "type" text not null, "status" text not null default 'pending', "created_at" timestamptz not null, "decided_at" timestamptz null, "decided_by_id" int null);`);
    this.addSql(`create index "verification_request_user_id_index" on "identity"."verification_request" ("user_id");`);
    this.addSql(`create index "verification_request_status_index" on "identity"."verification_request" ("status");`);

    this.addSql(`alter table "identity"."user_account" add "google_subject" varchar(255) null;`);
    this.addSql(`alter table "identity"."user_account" add constraint "user_account_google_subject_unique" unique ("google_subject");`);

    this.addSql(`alter table "identity"."verification_request" add constraint "verification_request_type_check" check ("type" in ('email', 'phone', 'id', 'bank'));`);
    this.addSql(`alter table "identity"."verification_request" add constraint "verification_request_status_check" check ("status" in ('pending', 'approved', 'rejected'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."password_reset" cascade;`);
    this.addSql(`drop table if exists "identity"."pending_signup" cascade;`);
    this.addSql(`drop table if exists "identity"."referral" cascade;`);
    this.addSql(`drop table if exists "identity"."verification_request" cascade;`);

    this.addSql(`alter table "identity"."user_account" drop constraint "user_account_google_subject_unique";`);
    this.addSql(`alter table "identity"."user_account" drop column "google_subject";`);
  }

}
