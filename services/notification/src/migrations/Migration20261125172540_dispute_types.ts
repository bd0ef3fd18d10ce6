import { Migration } from '@mikro-orm/migrations';

export class Migration20261125172540_dispute_types extends Migration {

  override name = 'Migration20261125172540_dispute_types';

  override up(): void | Promise<void> {
    this.addSql(`alter table "notification"."notification" drop constraint "notification_type_check";`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating', 'match_cancelled', 'match_declined', 'match_expired', 'completion_reminder', 'request_expired', 'payment_failed', 'payment_sent', 'dispute_opened', 'dispute_resolved'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "notification"."notification" drop constraint "notification_type_check";`);
    this.addSql(`alter table "notification"."notification" add constraint "notification_type_check" check ("type" in ('exchange_request', 'exchange_match', 'exchange_confirmed', 'exchange_completed', 'rating', 'match_cancelled', 'match_declined', 'match_expired', 'completion_reminder', 'request_expired', 'payment_failed', 'payment_sent'));`);
  }

}
