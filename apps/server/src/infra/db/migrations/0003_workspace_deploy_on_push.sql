ALTER TABLE "workspaces" ADD COLUMN "deploy_on_push" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "push_pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "push_seen_sha" text;