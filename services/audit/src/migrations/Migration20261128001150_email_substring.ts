import { Migration } from '@mikro-orm/migrations';

/**
 * Trigram indexes for the admins' email filter (a part of the address). pg_trgm ships with PostgreSQL's contrib and
 * with PGlite, but a managed database may refuse to install it: then the filter scans instead, and the start goes on.
 * Where the extension already lives in another schema, its operator class is found there.
 */
export class Migration20261128001150_email_substring extends Migration {

  override name = 'Migration20261128001150_email_substring';

  override up(): void | Promise<void> {
    this.addSql(`do $$
declare ops text;
begin
  begin
    create extension if not exists pg_trgm with schema "audit";
  exception when others then
    raise notice 'pg_trgm is not available (%): the email filter scans the attempts', sqlerrm;
    return;
  end;
  select format('%I.%I', n.nspname, c.opcname) into ops from pg_opclass c
    join pg_namespace n on n.oid = c.opcnamespace join pg_am m on m.oid = c.opcmethod
    where c.opcname = 'gin_trgm_ops' and m.amname = 'gin' limit 1;
  execute format('create index "login_attempt_email_key_trgm_index" on "audit"."login_attempt" using gin ("email_key" %s)', ops);
  execute format('create index "signup_attempt_email_key_trgm_index" on "audit"."signup_attempt" using gin ("email_key" %s)', ops);
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "audit"."login_attempt_email_key_trgm_index";`);
    this.addSql(`drop index if exists "audit"."signup_attempt_email_key_trgm_index";`);
  }

}
