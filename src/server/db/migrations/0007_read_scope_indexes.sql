CREATE INDEX "images_creator_idx" ON "images" USING btree ("creator_user_id");--> statement-breakpoint
CREATE INDEX "images_inherited_gin" ON "images" USING gin ("inherited_assignees" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "scan_groups_creator_idx" ON "scan_groups" USING btree ("creator_user_id");--> statement-breakpoint
CREATE INDEX "scan_groups_assignee_users_gin" ON "scan_groups" USING gin ("assignee_user_ids");--> statement-breakpoint
CREATE INDEX "scan_groups_assignee_orgs_gin" ON "scan_groups" USING gin ("assignee_org_ids");--> statement-breakpoint
CREATE INDEX "scan_groups_inherited_gin" ON "scan_groups" USING gin ("inherited_assignees" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "studies_creator_idx" ON "studies" USING btree ("creator_user_id");--> statement-breakpoint
CREATE INDEX "studies_assignee_users_gin" ON "studies" USING gin ("assignee_user_ids");--> statement-breakpoint
CREATE INDEX "studies_assignee_orgs_gin" ON "studies" USING gin ("assignee_org_ids");--> statement-breakpoint
CREATE INDEX "studies_inherited_gin" ON "studies" USING gin ("inherited_assignees" jsonb_path_ops);