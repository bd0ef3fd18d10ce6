import { Migration } from '@mikro-orm/migrations';

export class Migration20261121061245_bank_accounts extends Migration {

  override name = 'Migration20261121061245_bank_accounts';

  override up(): void | Promise<void> {
    this.addSql(`create table "accounts"."bank_account" ("id" serial primary key, "user_id" int not null, "currency" text not null, "bank_name" varchar(255) not null, "account_holder" varchar(255) not null, "account_number_sealed" text not null, "rut_sealed" text null, "account_type" text null, "email" varchar(255) null, "sort_code_sealed" text null, "iban_sealed" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "accounts"."bank_account" add constraint "bank_account_user_id_currency_unique" unique ("user_id", "currency");`);

    this.addSql(`alter table "accounts"."bank_account" add constraint "bank_account_currency_check" check ("currency" in ('GBP', 'CLP'));`);
    this.addSql(`alter table "accounts"."bank_account" add constraint "bank_account_account_type_check" check ("account_type" in ('rut', 'vista', 'current', 'debit', 'credit'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "accounts"."bank_account" cascade;`);
  }

}
