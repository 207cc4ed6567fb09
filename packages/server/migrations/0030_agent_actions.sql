-- Issue 21 §5: agent actions (the hosted API's AgentAction). One row per payment an agent starts; it waits
-- in PENDING_APPROVAL while the agent's policy requires platform approval, and is APPROVED, REJECTED or FAILED.
CREATE TABLE "agent_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"quote_id" text,
	"transaction_id" text,
	"transfer_details" jsonb,
	"rejection_reason" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_actions" ADD CONSTRAINT "agent_actions_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_actions" ADD CONSTRAINT "agent_actions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_actions_platform_created_idx" ON "agent_actions" USING btree ("platform_id","created_at","id");--> statement-breakpoint
CREATE INDEX "agent_actions_agent_created_idx" ON "agent_actions" USING btree ("agent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "agent_actions_transaction_idx" ON "agent_actions" USING btree ("transaction_id");
