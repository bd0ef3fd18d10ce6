import { Migration } from '@mikro-orm/migrations';

export class Migration20261125150146_profile_names extends Migration {

  override name = 'Migration20261125150146_profile_names';

  override up(): void | Promise<void> {
    this.addSql(`create table "accounts"."profile_name" ("user_id" int not null, "first_name" text not null, "last_name" text not null, "profile_as_of" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`create table "accounts"."projection_backfill" ("name" text not null, "rows" int not null, "completed_at" timestamptz not null, primary key ("name"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "accounts"."profile_name" cascade;`);
    this.addSql(`drop table if exists "accounts"."projection_backfill" cascade;`);
  }

}
