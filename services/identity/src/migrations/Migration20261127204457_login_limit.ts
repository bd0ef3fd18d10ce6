import { Migration } from '@mikro-orm/migrations';

export class Migration20261127204457_login_limit extends Migration {

  override name = 'Migration20261127204457_login_limit';

  override up(): void | Promise<void> {
    this.addSql(`alter table "identity"."user_account" add "failed_logins" int not null default 0, add "failed_logins_since" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "identity"."user_account" drop column "failed_logins", drop column "failed_logins_since";`);
  }

}
