import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.js";
import type { Caller } from "./context.js";
import { ErrorBody } from "./schemas.js";

export type Authenticate = (clientId: string, secret: string) => Promise<Caller | null>;
/** Resolves an agent's bearer access token to its caller (with `agent` set), or null. */
export type AuthenticateAgent = (accessToken: string) => Promise<Caller | null>;
/**
 * Counts one authentication attempt while its credentials are checked (auth/failed-attempts.ts): throws
 * `429 RATE_LIMITED` while the client id or the source address is at its failure limit, and returns the
 * function that settles the attempt; only a failed one counts.
 */
export type TakeAttempt = (source: {
  clientId?: string;
  ip: string;
}) => (outcome: "failed" | "succeeded" | "unchecked") => void;

const unauthorized = (reason: string) =>
  new ApiError("UNAUTHORIZED", { reason, headers: { "www-authenticate": 'Basic realm="paysvc"' } });

function basicCredentials(request: FastifyRequest): { clientId: string; secret: string } {
  const header = request.headers.authorization;
  if (!header)
    throw unauthorized("Missing Authorization header; use HTTP Basic with the token's clientId and secret.");
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match?.[1]) throw unauthorized("The Authorization header is not HTTP Basic.");
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw unauthorized("The Basic credentials are malformed.");
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

const agentUnauthorized = (reason: string) =>
  new ApiError("UNAUTHORIZED", { reason, headers: { "www-authenticate": 'Bearer realm="paysvc"' } });

/** AgentAuth: `Authorization: Bearer <accessToken>`; Basic credentials are refused on agent routes. */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header)
    throw agentUnauthorized("Missing Authorization header; use Bearer with the agent's access token.");
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i.exec(header.trim());
  if (!match?.[1])
    throw agentUnauthorized("Agent routes take an agent access token (Bearer), not API credentials.");
  return match[1];
}

/**
 * Checks presented credentials inside one counted attempt. A missing or malformed header is answered
 * 401 before, uncounted: it guesses nothing. A wrong secret or token counts as a failure; a success, or
 * an error that checked nothing (the database down), does not.
 */
async function counted(
  take: () => (outcome: "failed" | "succeeded" | "unchecked") => void,
  check: () => Promise<Caller | null>,
): Promise<Caller | null> {
  const settle = take();
  try {
    const caller = await check();
    settle(caller ? "succeeded" : "failed");
    return caller;
  } catch (error) {
    settle("unchecked");
    throw error;
  }
}

/**
 * Check order (conventions §1.7): 401 first, for every path but public ones; then unknown route or
 * method (the not-found handler); then 403 for a missing permission or a sandbox route called by a
 * production platform; body and query validation come after. A client id or source address over its
 * failure limit is `429` before its credentials are checked, so even the right secret waits.
 */
export function registerAuth(
  app: FastifyInstance,
  authenticate: Authenticate,
  authenticateAgent: AuthenticateAgent,
  takeAttempt: TakeAttempt,
): void {
  app.decorateRequest("caller", null as unknown as Caller);
  // Every route that takes credentials may answer the failure limit's 429: documented with its 401.
  app.addHook("onRoute", (route) => {
    const config = route.config ?? {};
    if (config.public || config.auth === "none" || !route.schema?.response) return;
    route.schema = { ...route.schema, response: { ...route.schema.response, 429: ErrorBody } };
  });
  app.addHook("onRequest", async (request) => {
    const config = request.routeOptions.config;
    if (config.public || config.auth === "none") return;
    if (config.auth === "agent" && !request.is404) {
      const token = bearerToken(request);
      const caller = await counted(
        () => takeAttempt({ ip: request.ip }),
        async () => {
          const found = await authenticateAgent(token);
          return found?.agent ? found : null;
        },
      );
      if (!caller) throw agentUnauthorized("The agent access token is not valid or was revoked.");
      request.caller = caller;
      const needed = config.agentOperation;
      if (needed && !request.caller.agent?.allowedOperations.includes(needed)) {
        throw new ApiError("FORBIDDEN", { reason: `The agent's policy does not allow ${needed}.` });
      }
      return;
    }
    const { clientId, secret } = basicCredentials(request);
    const caller = await counted(
      () => takeAttempt({ clientId, ip: request.ip }),
      () => authenticate(clientId, secret),
    );
    if (!caller) throw unauthorized("The API credentials are not valid.");
    request.caller = caller;
    if (request.is404) return;
    if (config.sandbox && caller.environment !== "SANDBOX") {
      throw new ApiError("FORBIDDEN", { reason: "Sandbox routes are available to sandbox platforms only." });
    }
    const needed =
      request.method === "GET" || request.method === "HEAD" ? "VIEW" : (config.permission ?? "MANAGE");
    if (needed !== "VIEW" && !caller.permissions.includes(needed)) {
      throw new ApiError("FORBIDDEN", { reason: `This operation needs the ${needed} permission.` });
    }
  });
}
