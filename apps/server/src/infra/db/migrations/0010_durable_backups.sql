ALTER TABLE "backups" ADD COLUMN "repository" text;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "rechecked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "restores" ADD COLUMN "plan" jsonb DEFAULT '{"staged":[],"held":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "restores" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "backups_recheck_idx" ON "backups" USING btree ("status","rechecked_at");--> statement-breakpoint
-- Every backup and restore written before runs were counted was taken by the process that wrote it.
UPDATE "backups" SET "attempts" = 1;--> statement-breakpoint
UPDATE "restores" SET "attempts" = 1;
