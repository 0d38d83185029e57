CREATE TABLE "log_chunks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"workspace_name" text NOT NULL,
	"deployment_id" uuid,
	"kind" text NOT NULL,
	"service" text DEFAULT '' NOT NULL,
	"container_id" text DEFAULT '' NOT NULL,
	"first_ts" timestamp with time zone NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	"first_index" integer DEFAULT 0 NOT NULL,
	"line_count" integer NOT NULL,
	"byte_count" integer NOT NULL,
	"payload" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "log_chunks_workspace_ts_idx" ON "log_chunks" USING btree ("user_id","workspace_name","kind","last_ts");--> statement-breakpoint
CREATE INDEX "log_chunks_deployment_idx" ON "log_chunks" USING btree ("deployment_id","id");--> statement-breakpoint
-- The one-row-per-line table is kept aside until logs/legacyLogLines.ts has moved its lines into chunks (at start-up).
ALTER TABLE "log_lines" RENAME TO "log_lines_legacy";
