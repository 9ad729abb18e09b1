CREATE TABLE "review_groups" (
	"change_seq" bigint DEFAULT nextval('change_seq') NOT NULL,
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"creator_user_id" uuid,
	"member_user_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"member_org_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"flagged" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_one_per_reviewer_idx" ON "reviews" USING btree ("review_group_uuid","image_id","reviewer_id") WHERE type <> 'comment';--> statement-breakpoint
CREATE TRIGGER review_groups_change_seq BEFORE INSERT OR UPDATE ON "review_groups" FOR EACH ROW EXECUTE FUNCTION bump_change_seq();--> statement-breakpoint
-- Keeps review_groups in step with reviews, in the same transaction as the review write. Counts move
-- by +1/-1 (not recounted), so concurrent writers to one group serialize on its row and never lose
-- an increment. A group whose last review is gone is deleted and tombstoned for the sync feed.
CREATE OR REPLACE FUNCTION review_groups_apply() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.review_group_uuid = NEW.review_group_uuid
     AND OLD.reviewer_id IS NOT DISTINCT FROM NEW.reviewer_id
     AND OLD.assignee_user_ids = NEW.assignee_user_ids AND OLD.assignee_org_ids = NEW.assignee_org_ids THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE review_groups SET
      total = total - 1,
      completed = completed - (OLD.status = 'completed')::int,
      accepted = accepted - (OLD.status = 'accepted')::int,
      rejected = rejected - (OLD.status = 'rejected')::int,
      flagged = flagged - (OLD.status = 'flagged')::int,
      pending = pending - (OLD.status = 'pending')::int
    WHERE id = OLD.review_group_uuid;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO review_groups AS g (id, organization_id, creator_user_id, member_user_ids, member_org_ids,
      total, completed, accepted, rejected, flagged, pending, created_at)
    VALUES (NEW.review_group_uuid, NEW.organization_id, NEW.creator_user_id,
      array_remove(ARRAY[NEW.reviewer_id::text], NULL) || NEW.assignee_user_ids, NEW.assignee_org_ids, 1,
      (NEW.status = 'completed')::int, (NEW.status = 'accepted')::int, (NEW.status = 'rejected')::int,
      (NEW.status = 'flagged')::int, (NEW.status = 'pending')::int, NEW.created_at)
    ON CONFLICT (id) DO UPDATE SET
      total = g.total + 1,
      completed = g.completed + EXCLUDED.completed,
      accepted = g.accepted + EXCLUDED.accepted,
      rejected = g.rejected + EXCLUDED.rejected,
      flagged = g.flagged + EXCLUDED.flagged,
      pending = g.pending + EXCLUDED.pending,
      member_user_ids = ARRAY(SELECT DISTINCT m FROM unnest(g.member_user_ids || EXCLUDED.member_user_ids) m),
      member_org_ids = ARRAY(SELECT DISTINCT m FROM unnest(g.member_org_ids || EXCLUDED.member_org_ids) m);
  END IF;
  IF TG_OP = 'DELETE' OR OLD.review_group_uuid <> NEW.review_group_uuid THEN
    DELETE FROM review_groups WHERE id = OLD.review_group_uuid AND total <= 0;
    IF FOUND THEN
      INSERT INTO tombstones (kind, id) VALUES ('review-groups', OLD.review_group_uuid);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER reviews_review_groups AFTER INSERT OR UPDATE OR DELETE ON "reviews" FOR EACH ROW EXECUTE FUNCTION review_groups_apply();--> statement-breakpoint
-- Groups of reviews written before this migration.
INSERT INTO review_groups (id, organization_id, creator_user_id, member_user_ids, member_org_ids,
  total, completed, accepted, rejected, flagged, pending, created_at)
SELECT review_group_uuid, (array_agg(organization_id ORDER BY created_at))[1],
  (array_agg(creator_user_id ORDER BY created_at))[1],
  ARRAY(SELECT DISTINCT m FROM unnest(array_remove(array_agg(reviewer_id::text), NULL)) m),
  '{}'::text[], count(*), count(*) FILTER (WHERE status = 'completed'),
  count(*) FILTER (WHERE status = 'accepted'), count(*) FILTER (WHERE status = 'rejected'),
  count(*) FILTER (WHERE status = 'flagged'), count(*) FILTER (WHERE status = 'pending'), min(created_at)
FROM reviews GROUP BY review_group_uuid;
