import { Migration } from '@mikro-orm/migrations';

export class Migration20261128030000_receipts extends Migration {

  override name = 'Migration20261128030000_receipts';

  override up(): void | Promise<void> {
    this.addSql(`create table "notification"."user_name" ("user_id" int not null, "name" text not null, "as_of" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`alter table "notification"."notification" drop constraint "notification_type_check";`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating', 'match_cancelled', 'match_declined', 'match_expired', 'completion_reminder', 'request_expired', 'payment_failed', 'payment_sent', 'dispute_opened', 'dispute_resolved', 'receipt_question', 'receipt_confirmed', 'receipt_lapsed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "notification"."user_name" cascade;`);

    this.addSql(`alter table "notification"."notification" drop constraint "notification_type_check";`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating', 'match_cancelled', 'match_declined', 'match_expired', 'completion_reminder', 'request_expired', 'payment_failed', 'payment_sent', 'dispute_opened', 'dispute_resolved'));`);
  }

}
