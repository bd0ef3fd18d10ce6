import { Migration } from '@mikro-orm/migrations';

export class Migration20261128024628_id_documents extends Migration {

  override name = 'Migration20261128024628_id_documents';

  override up(): void | Promise<void> {
    this.addSql(`create table "identity"."id_document" ("id" serial primary key, "request_id" int not null, "user_id" int not null, "file_name" text not null, "content_type" text not null, "size" int not null, "sealed" bytea null, "uploaded_at" timestamptz not null, "deleted_at" timestamptz null);`);
    this.addSql(`alter table "identity"."id_document" add constraint "id_document_request_id_unique" unique ("request_id");`);
    this.addSql(`create index "id_document_user_id_index" on "identity"."id_document" ("user_id");`);

    this.addSql(`alter table "identity"."verification_request" drop constraint "verification_request_status_check";`);
    this.addSql(`alter table "identity"."verification_request" add constraint "verification_request_status_check" check ("status" in ('awaiting_document', 'pending', 'approved', 'rejected'));`);

    this.addSql(`alter table "identity"."id_document" add constraint "id_document_content_type_check" check ("content_type" in ('image/png', 'image/jpeg', 'application/pdf'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "identity"."id_document" cascade;`);

    this.addSql(`alter table "identity"."verification_request" drop constraint "verification_request_status_check";`);
    this.addSql(`alter table "identity"."verification_request" add constraint "verification_request_status_check" check ("status" in ('pending', 'approved', 'rejected'));`);
  }

}
