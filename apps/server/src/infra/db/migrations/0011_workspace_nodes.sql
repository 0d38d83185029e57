ALTER TABLE "subscriptions" ADD COLUMN "nodes" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "node_index" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "node_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vms_workspace_node_idx" ON "vms" USING btree ("workspace_id","node_index");--> statement-breakpoint
-- The VM each workspace already runs on is its node 1 (the oldest workspace's, should two share one).
UPDATE "vms" SET "workspace_id" = "first"."id", "node_index" = 1
FROM (
  SELECT DISTINCT ON ("vm_id") "vm_id", "id" FROM "workspaces" WHERE "vm_id" IS NOT NULL ORDER BY "vm_id", "created_at"
) AS "first"
WHERE "first"."vm_id" = "vms"."id";
