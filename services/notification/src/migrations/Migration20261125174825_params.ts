import { Migration } from '@mikro-orm/migrations';

export class Migration20261125174825_params extends Migration {

  override name = 'Migration20261125174825_params';

  override up(): void | Promise<void> {
    this.addSql(`alter table "notification"."notification" add "params" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "notification"."notification" drop column "params";`);
  }

}
