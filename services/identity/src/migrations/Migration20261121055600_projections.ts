import { Migration } from '@mikro-orm/migrations';

export class Migration20261121055600_projections extends Migration {

  override name = 'Migration20261121055600_projections';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."account_currency" ("account_id" int not null, "user_id" int not null, "currency" text not null, primary key ("account_id"));`);
    this.addSql(`create index "account_currency_user_id_index" on "identity"."account_currency" ("user_id");`);

    this.addSql(`alter table "identity"."account_currency" add constraint "account_currency_currency_check" check ("currency" in ('GBP', 'CLP'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."account_currency" cascade;`);
  }

}
