import { Migration } from '@mikro-orm/migrations';

export class Migration20261123232350_unread_index extends Migration {

  override name = 'Migration20261123232350_unread_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "notification_unread_user_id_id_index" on "notification"."notification" ("user_id", "id") where not "read";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "notification"."notification_unread_user_id_id_index";`);
  }

}
