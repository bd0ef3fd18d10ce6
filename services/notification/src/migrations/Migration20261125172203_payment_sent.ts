import { Migration } from '@mikro-orm/migrations';

export class Migration20261125172203_payment_sent extends Migration {

  override name = 'Migration20261125172203_payment_sent';

  override up(): void | Promise<void> {
    this.addSql(`alter table "notification"."notification" drop constraint "notification_type_check";`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating', 'match_cancelled', 'match_declined', 'match_expired', 'completion_reminder', 'request_expired', 'payment_failed', 'payment_sent'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "notification"."notification" drop constraint "notification_type_check";`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating', 'match_cancelled', 'match_declined', 'match_expired', 'completion_reminder', 'request_expired', 'payment_failed'));`);
  }

}
