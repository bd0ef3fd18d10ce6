import { Migration } from '@mikro-orm/migrations';

export class Migration20261125084752_account_deletion extends Migration {

  override name = 'Migration20261125084752_account_deletion';

  override up(): void | Promise<void> {
    this.addSql(`alter table "identity"."user_account" add "deleted_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "identity"."user_account" drop column "deleted_at";`);
  }

}
