import { Migration } from '@mikro-orm/migrations';

export class Migration20261125090057_account_deletion extends Migration {

  override name = 'Migration20261125090057_account_deletion';

  override up(): void | Promise<void> {
    this.addSql(`alter table "audit"."login_attempt" add "user_id" int null;`);
    this.addSql(`create index "login_attempt_user_id_index" on "audit"."login_attempt" ("user_id");`);

    this.addSql(`alter table "audit"."signup_attempt" add "user_id" int null;`);
    this.addSql(`create index "signup_attempt_user_id_index" on "audit"."signup_attempt" ("user_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "audit"."login_attempt_user_id_index";`);
    this.addSql(`alter table "audit"."login_attempt" drop column "user_id";`);

    this.addSql(`drop index "audit"."signup_attempt_user_id_index";`);
    this.addSql(`alter table "audit"."signup_attempt" drop column "user_id";`);
  }

}
