import { Migration } from '@mikro-orm/migrations';

export class Migration20261128000450_google_reauthentication extends Migration {

  override name = 'Migration20261128000450_google_reauthentication';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."recent_google_sign_in" ("session_key" varchar(255) not null, "user_id" int not null, "signed_in_at" timestamptz not null, primary key ("session_key"));`);
    this.addSql(`create index "recent_google_sign_in_user_id_index" on "identity"."recent_google_sign_in" ("user_id");`);

    this.addSql(`alter table "identity"."user_account" add "google_linked_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."recent_google_sign_in" cascade;`);

    this.addSql(`alter table "identity"."user_account" drop column "google_linked_at";`);
  }

}
