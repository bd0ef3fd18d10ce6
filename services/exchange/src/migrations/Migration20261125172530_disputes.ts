import { Migration } from '@mikro-orm/migrations';

export class Migration20261125172530_disputes extends Migration {

  override name = 'Migration20261125172530_disputes';

  override up(): void | Promise<void> {
    this.addSql(`create table "exchange"."dispute" ("id" serial primary key, "match_id" int not null, "request_id" int not null, "requester_id" int not null, "matcher_id" int not null, "opened_by_id" int not null, "reason" text not null, "statement" text not null, "status" text not null, "opened_at" timestamptz not null, "outcome" text null, "admin_note" text null, "resolved_by_id" int null, "resolved_at" timestamptz null, "sanction_user_id" int null, "sanction_kind" text null);`);
    this.addSql(`alter table "exchange"."dispute" add constraint "dispute_match_id_unique" unique ("match_id");`);
    this.addSql(`create index "dispute_status_opened_at_index" on "exchange"."dispute" ("status", "opened_at");`);
    this.addSql(`create index "dispute_requester_id_index" on "exchange"."dispute" ("requester_id");`);
    this.addSql(`create index "dispute_matcher_id_index" on "exchange"."dispute" ("matcher_id");`);

    this.addSql(`create table "exchange"."trading_sanction" ("id" serial primary key, "user_id" int not null, "kind" text not null, "dispute_id" int not null, "created_by_id" int not null, "created_at" timestamptz not null, "lifted_at" timestamptz null, "lifted_by_id" int null);`);
    this.addSql(`create index "trading_sanction_user_id_index" on "exchange"."trading_sanction" ("user_id");`);

    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_event_check";`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_event_check" check ("event" in ('accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'dispute_resolved'));`);

    this.addSql(`alter table "exchange"."dispute" add constraint "dispute_reason_check" check ("reason" in ('no_payment', 'wrong_amount', 'third_party_payment', 'unresponsive', 'other'));`);
    this.addSql(`alter table "exchange"."dispute" add constraint "dispute_status_check" check ("status" in ('open', 'resolved'));`);
    this.addSql(`alter table "exchange"."dispute" add constraint "dispute_outcome_check" check ("outcome" in ('completed', 'cancelled'));`);
    this.addSql(`alter table "exchange"."dispute" add constraint "dispute_sanction_kind_check" check ("sanction_kind" in ('warning', 'suspension'));`);

    this.addSql(`alter table "exchange"."trading_sanction" add constraint "trading_sanction_kind_check" check ("kind" in ('warning', 'suspension'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "exchange"."dispute" cascade;`);
    this.addSql(`drop table if exists "exchange"."trading_sanction" cascade;`);

    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_event_check";`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_event_check" check ("event" in ('accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired'));`);
  }

}
