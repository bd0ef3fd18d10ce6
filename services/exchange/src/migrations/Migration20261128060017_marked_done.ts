import { Migration } from '@mikro-orm/migrations';

export class Migration20261128060017_marked_done extends Migration {

  override name = 'Migration20261128060017_marked_done';

  override up(): void | Promise<void> {
    this.addSql(`alter table "exchange"."exchange_request" add "marked_done_at" timestamptz null;`);
    // Requests marked done before this was kept: completed without a completed match; their last change was the mark.
    this.addSql(`update "exchange"."exchange_request" r set "marked_done_at" = r."updated_at" where r."status" = 'completed' and not exists (select 1 from "exchange"."exchange_match" m where m."request_id" = r."id" and m."status" = 'completed');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "exchange"."exchange_request" drop column "marked_done_at";`);
  }

}
