import { Migration } from '@mikro-orm/migrations';

export class Migration20261125085215_account_deletion extends Migration {

  override name = 'Migration20261125085215_account_deletion';

  override up(): void | Promise<void> {
    this.addSql(`alter table "exchange"."trader" add "deleted_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "exchange"."trader" drop column "deleted_at";`);
  }

}
