import { Migration } from '@mikro-orm/migrations';

export class Migration20261128060103_resolved_disputes extends Migration {

  override name = 'Migration20261128060103_resolved_disputes';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."resolved_dispute" ("dispute_id" int not null, "requester_id" int not null, "matcher_id" int not null, "outcome" text not null, "sanction_user_id" int null, "sanction_kind" text null, primary key ("dispute_id"));`);
    this.addSql(`create index "resolved_dispute_requester_id_index" on "identity"."resolved_dispute" ("requester_id");`);
    this.addSql(`create index "resolved_dispute_matcher_id_index" on "identity"."resolved_dispute" ("matcher_id");`);

    this.addSql(`alter table "identity"."resolved_dispute" add constraint "resolved_dispute_outcome_check" check ("outcome" in ('completed', 'cancelled'));`);
    this.addSql(`alter table "identity"."resolved_dispute" add constraint "resolved_dispute_sanction_kind_check" check ("sanction_kind" in ('warning', 'suspension'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."resolved_dispute" cascade;`);
  }

}
