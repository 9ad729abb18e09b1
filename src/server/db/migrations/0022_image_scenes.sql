ALTER TABLE "images" ADD COLUMN "scene" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "upload_group_id" uuid;--> statement-breakpoint
CREATE INDEX "images_upload_group_idx" ON "images" USING btree ("upload_group_id");