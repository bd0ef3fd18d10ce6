import { Migration } from '@mikro-orm/migrations';

export class Migration20261128024609_receipts extends Migration {

  override name = 'Migration20261128024609_receipts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_event_check";`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_event_check" check ("event" in ('accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'dispute_resolved', 'received', 'receipt_asked'));`);

    this.addSql(`alter table "exchange"."exchange_match" add "requester_received_at" timestamptz null, add "matcher_received_at" timestamptz null, add "completed_by_id" int null, add "receipt_asked_id" int null, add "receipt_asked_at" timestamptz null, add "receipt_due_at" timestamptz null, add "receipt_answer" text null, add "receipt_answered_at" timestamptz null;`);
    this.addSql(`create index "exchange_match_receipt_due_at_index" on "exchange"."exchange_match" ("receipt_due_at");`);
    this.addSql(`alter table "exchange"."exchange_match" add constraint "exchange_match_receipt_answer_check" check ("receipt_answer" in ('yes', 'no', 'lapsed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "exchange"."chat_message" drop constraint "chat_message_event_check";`);
    this.addSql(`alter table "exchange"."chat_message" add constraint "chat_message_event_check" check ("event" in ('accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'dispute_resolved'));`);

    this.addSql(`drop index "exchange"."exchange_match_receipt_due_at_index";`);
    this.addSql(`alter table "exchange"."exchange_match" drop constraint "exchange_match_receipt_answer_check";`);
    this.addSql(`alter table "exchange"."exchange_match" drop column "requester_received_at", drop column "matcher_received_at", drop column "completed_by_id", drop column "receipt_asked_id", drop column "receipt_asked_at", drop column "receipt_due_at", drop column "receipt_answer", drop column "receipt_answered_at";`);
  }

}
