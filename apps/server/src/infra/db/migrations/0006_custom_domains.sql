CREATE TABLE "custom_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"service" text NOT NULL,
	"challenge_token" text NOT NULL,
	"status" text DEFAULT 'pending_dns' NOT NULL,
	"cause" text,
	"redirect_www" boolean DEFAULT false NOT NULL,
	"failed_checks" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"retry_after" timestamp with time zone,
	"certificate_issuer" text,
	"certificate_not_after" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "custom_domains" ADD CONSTRAINT "custom_domains_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_domains_workspace_domain_idx" ON "custom_domains" USING btree ("workspace_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_domains_verified_idx" ON "custom_domains" USING btree ("domain") WHERE "custom_domains"."verified_at" is not null;--> statement-breakpoint
CREATE INDEX "custom_domains_next_check_idx" ON "custom_domains" USING btree ("next_check_at");