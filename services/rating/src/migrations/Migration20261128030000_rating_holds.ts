import { Migration } from '@mikro-orm/migrations';

export class Migration20261128030000_rating_holds extends Migration {

  override name = 'Migration20261128030000_rating_holds';

  override up(): void | Promise<void> {
    this.addSql(`alter table "rating"."trade" add "held_by_dispute_id" int null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "rating"."trade" drop column "held_by_dispute_id";`);
  }

}
