import { Migration } from '@mikro-orm/migrations';

export class Migration20261125152537_support_requests extends Migration {

  override name = 'Migration20261125152537_support_requests';

  override up(): void | Promise<void> {
    this.addSql(`create table "subscription"."support_request" ("id" serial primary key, "user_id" int not null, "subject" text not null, "message" text not null, "status" text not null default 'open', "reply" text null, "created_at" timestamptz not null, "resolved_at" timestamptz null, "resolved_by_id" int null);`);
    this.addSql(`create index "support_request_user_id_index" on "subscription"."support_request" ("user_id");`);
    this.addSql(`create index "support_request_status_created_at_index" on "subscription"."support_request" ("status", "created_at");`);

    this.addSql(`alter table "subscription"."support_request" add constraint "support_request_status_check" check ("status" in ('open', 'answered', 'closed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "subscription"."support_request" cascade;`);
  }

}
