import { Migration } from '@mikro-orm/migrations';

export class Migration20261123191751_trade_lock extends Migration {

  override name = 'Migration20261123191751_trade_lock';

  override up(): void | Promise<void> {
    this.addSql(`create table "accounts"."trade_lock" ("match_id" int not null, "requester_id" int not null, "matcher_id" int not null, "active" boolean not null, "updated_at" timestamptz not null, primary key ("match_id"));`);
    this.addSql(`create index "trade_lock_requester_id_index" on "accounts"."trade_lock" ("requester_id");`);
    this.addSql(`create index "trade_lock_matcher_id_index" on "accounts"."trade_lock" ("matcher_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "accounts"."trade_lock" cascade;`);
  }

}
