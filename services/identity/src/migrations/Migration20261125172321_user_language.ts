import { Migration } from '@mikro-orm/migrations';

export class Migration20261125172321_user_language extends Migration {

  override name = 'Migration20261125172321_user_language';

  override up(): void | Promise<void> {
    this.addSql(`alter table "identity"."pending_signup" add "language" text not null default 'en';`);
    this.addSql(`alter table "identity"."pending_signup" add constraint "pending_signup_language_check" check ("language" in ('en', 'es'));`);

    this.addSql(`alter table "identity"."user_account" add "language" text not null default 'en';`);
    this.addSql(`alter table "identity"."user_account" add constraint "user_account_language_check" check ("language" in ('en', 'es'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "identity"."pending_signup" drop constraint "pending_signup_language_check";`);
    this.addSql(`alter table "identity"."pending_signup" drop column "language";`);

    this.addSql(`alter table "identity"."user_account" drop constraint "user_account_language_check";`);
    this.addSql(`alter table "identity"."user_account" drop column "language";`);
  }

}
