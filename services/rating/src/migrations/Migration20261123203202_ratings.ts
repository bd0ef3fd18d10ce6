import { Migration } from '@mikro-orm/migrations';

export class Migration20261123203202_ratings extends Migration {

  override name = 'Migration20261123203202_ratings';

  override up(): void | Promise<void> {
    this.addSql(`create table "rating"."projection_backfill" ("name" text not null, "rows" int not null, "completed_at" timestamptz not null, primary key ("name"));`);

    this.addSql(`create table "rating"."rater" ("user_id" int not null, "first_name" text not null default '', "profile_as_of" timestamptz null, primary key ("user_id"));`);

    this.addSql(`create table "rating"."rating" ("id" serial primary key, "match_id" int not null, "from_user_id" int not null, "to_user_id" int not null, "rating" smallint not null, "comment" text null, "created_at" timestamptz not null);`);
    this.addSql(`create index "rating_to_user_id_id_index" on "rating"."rating" ("to_user_id", "id");`);
    this.addSql(`alter table "rating"."rating" add constraint "rating_match_id_from_user_id_unique" unique ("match_id", "from_user_id");`);

    this.addSql(`create table "rating"."trade" ("match_id" int not null, "requester_id" int not null, "matcher_id" int not null, "status" text not null, primary key ("match_id"));`);

    this.addSql(`alter table "rating"."trade" add constraint "trade_status_check" check ("status" in ('pending', 'confirmed', 'completed', 'cancelled', 'expired'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rating"."projection_backfill" cascade;`);
    this.addSql(`drop table if exists "rating"."rater" cascade;`);
    this.addSql(`drop table if exists "rating"."rating" cascade;`);
    this.addSql(`drop table if exists "rating"."trade" cascade;`);
  }

}
