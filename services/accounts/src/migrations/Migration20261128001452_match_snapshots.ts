import { Migration } from '@mikro-orm/migrations';

export class Migration20261128001452_match_snapshots extends Migration {

  override name = 'Migration20261128001452_match_snapshots';

  override up(): void | Promise<void> {
    this.addSql(`create table "accounts"."match_account_snapshot" ("match_id" int not null, "user_id" int not null, "role" text not null, "account_id" int not null, "currency" text not null, "bank_name" varchar(255) not null, "account_holder" varchar(255) not null, "account_number_sealed" text not null, "rut_sealed" text null, "account_type" text null, "email" varchar(255) null, "sort_code_sealed" text null, "iban_sealed" text null, "holder_matches_name" boolean null, "payer_holder" varchar(255) null, "payer_holder_matches_name" boolean null, "taken_at" timestamptz not null, "expires_at" timestamptz null, primary key ("match_id", "user_id"));`);
    this.addSql(`create index "match_account_snapshot_user_id_index" on "accounts"."match_account_snapshot" ("user_id");`);
    this.addSql(`create index "match_account_snapshot_expires_at_index" on "accounts"."match_account_snapshot" ("expires_at");`);

    this.addSql(`alter table "accounts"."match_account_snapshot" add constraint "match_account_snapshot_role_check" check ("role" in ('requester', 'matcher'));`);
    this.addSql(`alter table "accounts"."match_account_snapshot" add constraint "match_account_snapshot_currency_check" check ("currency" in ('GBP', 'CLP'));`);
    this.addSql(`alter table "accounts"."match_account_snapshot" add constraint "match_account_snapshot_account_type_check" check ("account_type" in ('rut', 'vista', 'current', 'debit', 'credit'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "accounts"."match_account_snapshot" cascade;`);
  }

}
