export type Permission = "VIEW" | "TRANSACT" | "MANAGE";
export type Environment = "SANDBOX" | "PRODUCTION";

/** Who is calling: resolved from the API token on every authenticated request. */
export interface Caller {
  platformId: string;
  tokenId: string;
  permissions: readonly Permission[];
  environment: Environment;
  /** Sandbox clock offset of the platform: every timestamp assigned for it is service now + this. */
  clockOffsetMs: number;
  /** Set when the caller is an agent (AgentAuth bearer token): bound to one customer and its policy. */
  agent?: AgentPrincipal;
}

/** A permission an agent's policy may grant (the hosted API's AgentPermission). */
export type AgentOperation =
  | "VIEW_TRANSACTIONS"
  | "CREATE_TRANSFERS"
  | "CREATE_QUOTES"
  | "EXECUTE_QUOTES"
  | "MANAGE_EXTERNAL_ACCOUNTS";

/** The agent behind an AgentAuth request. */
export interface AgentPrincipal {
  agentId: string;
  customerId: string;
  allowedOperations: readonly AgentOperation[];
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Served without credentials (health, OpenAPI, docs). */
    public?: boolean;
    /** The permission a write needs; GETs need only a valid token (conventions §1.2). Default MANAGE. */
    permission?: Permission;
    /** Accepts an empty body with no Content-Type (conventions §1.1). */
    optionalBody?: boolean;
    /** Exists only in sandbox mode and answers 403 to production platforms (conventions §1.9). */
    sandbox?: boolean;
    /** `agent`: AgentAuth (Bearer access token) only; `none`: no credentials, still documented. Default Basic. */
    auth?: "agent" | "none";
    /** The agent policy operation an AgentAuth route needs (403 FORBIDDEN without it). */
    agentOperation?: AgentOperation;
  }
  interface FastifyRequest {
    caller: Caller;
  }
}
