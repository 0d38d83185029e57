DROP INDEX "log_lines_workspace_idx";--> statement-breakpoint
CREATE INDEX "log_lines_workspace_ts_idx" ON "log_lines" USING btree ("user_id","workspace_name","kind","ts");