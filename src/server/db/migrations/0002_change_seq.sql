CREATE SEQUENCE IF NOT EXISTS change_seq;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "organs" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "predictors" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_groups" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_order_lists" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_orders" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "reactions" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "tombstones" ADD COLUMN "change_seq" bigint DEFAULT nextval('change_seq') NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_change_seq() RETURNS trigger AS $$
BEGIN
  NEW.change_seq := nextval('change_seq');
  IF TG_OP = 'UPDATE' THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER organizations_change_seq BEFORE INSERT OR UPDATE ON "organizations" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER users_change_seq BEFORE INSERT OR UPDATE ON "users" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER images_change_seq BEFORE INSERT OR UPDATE ON "images" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER organs_change_seq BEFORE INSERT OR UPDATE ON "organs" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER pipelines_change_seq BEFORE INSERT OR UPDATE ON "pipelines" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER predictors_change_seq BEFORE INSERT OR UPDATE ON "predictors" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER scan_groups_change_seq BEFORE INSERT OR UPDATE ON "scan_groups" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER scan_order_lists_change_seq BEFORE INSERT OR UPDATE ON "scan_order_lists" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER scan_orders_change_seq BEFORE INSERT OR UPDATE ON "scan_orders" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER reactions_change_seq BEFORE INSERT OR UPDATE ON "reactions" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER reviews_change_seq BEFORE INSERT OR UPDATE ON "reviews" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
CREATE TRIGGER studies_change_seq BEFORE INSERT OR UPDATE ON "studies" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();
