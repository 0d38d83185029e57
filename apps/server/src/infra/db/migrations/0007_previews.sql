CREATE TABLE "preview_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"vm_size" text NOT NULL,
	"max_running" integer NOT NULL,
	"inactivity_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "previews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"parent_id" uuid NOT NULL,
	"workspace_id" uuid,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"branch" text NOT NULL,
	"head_ref" text NOT NULL,
	"head_sha" text NOT NULL,
	"author" text NOT NULL,
	"from_fork" boolean DEFAULT false NOT NULL,
	"needs_approval" boolean DEFAULT false NOT NULL,
	"approved_sha" text,
	"pending_sha" text,
	"state" text NOT NULL,
	"cause" text,
	"deployment_id" uuid,
	"pull_request_url" text,
	"comment_id" bigint,
	"reported_state" text,
	"closed_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "env_variables" ADD COLUMN "for_previews" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "env_variables" ADD COLUMN "preview_value_enc" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "preview_of" uuid;--> statement-breakpoint
ALTER TABLE "preview_settings" ADD CONSTRAINT "preview_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_parent_id_workspaces_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "previews_parent_number_idx" ON "previews" USING btree ("parent_id","number");--> statement-breakpoint
CREATE INDEX "previews_state_idx" ON "previews" USING btree ("state");