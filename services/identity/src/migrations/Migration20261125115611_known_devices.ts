import { Migration } from '@mikro-orm/migrations';

export class Migration20261125115611_known_devices extends Migration {

  override name = 'Migration20261125115611_known_devices';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."known_device" ("id" serial primary key, "user_id" int not null, "browser" varchar(255) not null, "os" varchar(255) not null, "network" varchar(255) not null, "first_seen_at" timestamptz not null, "last_seen_at" timestamptz not null);`);
    this.addSql(`alter table "identity"."known_device" add constraint "known_device_user_id_browser_os_network_unique" unique ("user_id", "browser", "os", "network");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."known_device" cascade;`);
  }

}
