import { Migration } from '@mikro-orm/migrations';

export class Migration20261123170642_input_altered extends Migration {

  override name = 'Migration20261123170642_input_altered';

  override up(): void | Promise<void> {
    this.addSql(`alter table "audit"."login_attempt" add "input_altered" boolean not null default false;`);

    this.addSql(`alter table "audit"."signup_attempt" add "input_altered" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "audit"."login_attempt" drop column "input_altered";`);

    this.addSql(`alter table "audit"."signup_attempt" drop column "input_altered";`);
  }

}
