import { Migration } from '@mikro-orm/migrations';

export class Migration20261123223155_request_id extends Migration {

  override name = 'Migration20261123223155_request_id';

  override up(): void | Promise<void> {
    this.addSql(`alter table "rating"."trade" add "request_id" int null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "rating"."trade" drop column "request_id";`);
  }

}
