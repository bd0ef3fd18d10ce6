import { Migration } from '@mikro-orm/migrations';

export class Migration20261128004324_google_link extends Migration {

  override name = 'Migration20261128004324_google_link';

  override up(): void | Promise<void> {
    this.addSql(`alter table "identity"."password_reset" add "unlink_google" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "identity"."password_reset" drop column "unlink_google";`);
  }

}
