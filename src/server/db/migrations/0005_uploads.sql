CREATE TABLE "upload_groups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"file_count" integer NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"image_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" uuid NOT NULL,
	"creator_user_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"relative_path" text NOT NULL,
	"size" bigint NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "upload_groups_creator_idx" ON "upload_groups" USING btree ("creator_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_group_path_idx" ON "uploads" USING btree ("group_id","relative_path");--> statement-breakpoint
CREATE INDEX "uploads_status_expiry_idx" ON "uploads" USING btree ("status","expires_at");