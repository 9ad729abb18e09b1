CREATE TABLE "images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"creator_user_id" uuid,
	"status" text DEFAULT 'created' NOT NULL,
	"media_type" text,
	"info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"scan_type" text,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"image_type" text DEFAULT 'real' NOT NULL,
	"scan_group_id" uuid,
	"storage_status" text DEFAULT 'active' NOT NULL,
	"archive_at" timestamp with time zone,
	"source_image_id" uuid,
	"scan_order_id" uuid,
	"predictor_id" uuid,
	"pixel_scale" double precision,
	"display_uui_ds" text[] DEFAULT '{}'::text[] NOT NULL,
	"display_status" text DEFAULT 'created' NOT NULL,
	"worker_id" text,
	"storage_key" text,
	"file_size" bigint,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"animal" text NOT NULL,
	"assignee_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipelines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid,
	"name" text NOT NULL,
	"predictor_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"organ_id" uuid,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "predictors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid,
	"archive_at" timestamp with time zone,
	"storage_status" text DEFAULT 'active' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"name" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '1' NOT NULL,
	"media_type" text,
	"organ_id" uuid,
	"scan_type" text,
	"input_pixel_scale" double precision,
	"output_pixel_scale" double precision,
	"output_tile_shape" jsonb,
	"output_tile_overlap" integer,
	"input_data_type" text,
	"output_data_type" text,
	"input_channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"output_channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uuid" uuid,
	"default_viewer_settings" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_groups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"simple_id" text NOT NULL,
	"name" text,
	"notes" text DEFAULT '' NOT NULL,
	"lis_info" jsonb,
	"organ_id" uuid,
	"animal" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"storage_status" text DEFAULT 'active' NOT NULL,
	"archive_at" timestamp with time zone,
	"storage_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"organization_id" uuid NOT NULL,
	"creator_user_id" uuid,
	"last_upload_date" timestamp with time zone,
	"assignee_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_order_lists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid NOT NULL,
	"assignee_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scan_order_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"expiration" timestamp with time zone,
	"order_by" text,
	"order_direction" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid NOT NULL,
	"status" text DEFAULT 'inactive' NOT NULL,
	"scan_group_id" uuid,
	"pipeline_id" uuid,
	"study_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"assignee_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"diff" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reference_id" uuid,
	"action_type" text NOT NULL,
	"reference" text NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid
);
--> statement-breakpoint
CREATE TABLE "alignment_rigids" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid NOT NULL,
	"type" text DEFAULT 'rigid' NOT NULL,
	"status" text DEFAULT 'inactive' NOT NULL,
	"error" text,
	"output_data" jsonb,
	"input_data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "annotations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid NOT NULL,
	"content" jsonb,
	"image_id" uuid NOT NULL,
	"source_image_id" uuid,
	"review_id" uuid,
	"name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status_code" text NOT NULL,
	"body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"reaction_type" text DEFAULT 'heart' NOT NULL,
	"reference" text DEFAULT 'ScanGroup' NOT NULL,
	"reference_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_user_id" uuid,
	"organization_id" uuid NOT NULL,
	"review_group_uuid" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"reviewer_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'standard' NOT NULL,
	"qc" boolean DEFAULT false NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"assignee_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"scan_group_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"organization_id" uuid NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"creator_user_id" uuid,
	"assignee_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assignee_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"inherited_assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"viewer_options" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tombstones" (
	"kind" text NOT NULL,
	"id" uuid NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_viewer_settings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"study_id" uuid,
	"creator_user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"viewer_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "images_scan_group_idx" ON "images" USING btree ("scan_group_id");--> statement-breakpoint
CREATE INDEX "images_org_idx" ON "images" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "images_updated_idx" ON "images" USING btree ("updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "scan_groups_simple_id_idx" ON "scan_groups" USING btree ("simple_id");--> statement-breakpoint
CREATE INDEX "scan_groups_org_idx" ON "scan_groups" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "scan_groups_updated_idx" ON "scan_groups" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "scan_orders_org_idx" ON "scan_orders" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "scan_orders_updated_idx" ON "scan_orders" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "activities_date_idx" ON "activities" USING btree ("date");--> statement-breakpoint
CREATE INDEX "activities_org_idx" ON "activities" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reactions_once_idx" ON "reactions" USING btree ("creator_user_id","reaction_type","reference","reference_id");--> statement-breakpoint
CREATE INDEX "reviews_group_idx" ON "reviews" USING btree ("review_group_uuid");--> statement-breakpoint
CREATE INDEX "reviews_image_idx" ON "reviews" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "studies_org_idx" ON "studies" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "studies_updated_idx" ON "studies" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "tombstones_kind_idx" ON "tombstones" USING btree ("kind","deleted_at");