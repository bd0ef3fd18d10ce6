import { Migration } from '@mikro-orm/migrations';

export class Migration20261123223451_trade_stats extends Migration {

  override name = 'Migration20261123223451_trade_stats';

  override up(): void | Promise<void> {
    this.addSql(`alter table "identity"."user_account" add "confirmed_match_count" int not null default 0, add "completed_match_count" int not null default 0, add "timed_completion_count" int not null default 0, add "completion_seconds_total" bigint not null default '0';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "identity"."user_account" drop column "confirmed_match_count", drop column "completed_match_count", drop column "timed_completion_count", drop column "completion_seconds_total";`);
  }

}
