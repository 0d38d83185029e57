CREATE TABLE "backup_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"schedule_kind" text NOT NULL,
	"schedule_time" text,
	"schedule_cron" text,
	"keep_daily" integer NOT NULL,
	"keep_weekly" integer NOT NULL,
	"password_enc" text NOT NULL,
	"next_backup_at" timestamp with time zone,
	"scheduled_since" timestamp with time zone DEFAULT now() NOT NULL,
	"missed_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"cause" text,
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"added_bytes" bigint DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"verified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "restores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"backup_id" uuid NOT NULL,
	"safety_backup_id" uuid,
	"services" jsonb NOT NULL,
	"status" text NOT NULL,
	"cause" text,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "backup_settings" ADD CONSTRAINT "backup_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restores" ADD CONSTRAINT "restores_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backups_workspace_idx" ON "backups" USING btree ("workspace_id","started_at");--> statement-breakpoint
CREATE INDEX "backups_active_idx" ON "backups" USING btree ("status") WHERE status in ('running', 'verifying');--> statement-breakpoint
CREATE INDEX "restores_workspace_idx" ON "restores" USING btree ("workspace_id","started_at");