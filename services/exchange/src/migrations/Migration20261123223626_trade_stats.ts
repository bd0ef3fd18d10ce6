import { Migration } from '@mikro-orm/migrations';

export class Migration20261123223626_trade_stats extends Migration {

  override name = 'Migration20261123223626_trade_stats';

  override up(): void | Promise<void> {
    this.addSql(`alter table "exchange"."trader" add "confirmed_count" int not null default 0, add "timed_completion_count" int not null default 0, add "completion_seconds_total" bigint not null default '0', add "member_since" timestamptz null;`);

    // The trade record of matches confirmed before it was counted: this service owns the matches, so count them now.
    this.addSql(`insert into "exchange"."trader" as t (user_id, transaction_count, confirmed_count, timed_completion_count, completion_seconds_total)
      select user_id, count(completed_at), count(*), count(completed_at), coalesce(sum(greatest(0, round(extract(epoch from completed_at - confirmed_at)))), 0)
        from (select requester_id as user_id, confirmed_at, completed_at from "exchange"."exchange_match" where confirmed_at is not null
              union all
              select matcher_id, confirmed_at, completed_at from "exchange"."exchange_match" where confirmed_at is not null) as party
       group by user_id
      on conflict (user_id) do update set transaction_count = greatest(t.transaction_count, excluded.transaction_count),
        confirmed_count = excluded.confirmed_count, timed_completion_count = excluded.timed_completion_count,
        completion_seconds_total = excluded.completion_seconds_total;`);
    // Take identity's user snapshot again at the next start: it brings each known user's createdAt as member_since.
    this.addSql(`delete from "exchange"."projection_backfill" where "name" = 'users';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "exchange"."trader" drop column "confirmed_count", drop column "timed_completion_count", drop column "completion_seconds_total", drop column "member_since";`);
  }

}
