import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance } from "fastify";
import { authenticateAgent } from "./agents/device-codes.js";
import { agentRoutes } from "./agents/routes.js";
import { apiAuthAttempts } from "./auth/failed-attempts.js";
import { tokenRoutes } from "./auth/routes.js";
import { authenticate } from "./auth/tokens.js";
import { cardRoutes } from "./cards/routes.js";
import { cardRows } from "./cards/transaction-rows.js";
import type { Deps } from "./core/deps.js";
import { registerAuth } from "./core/http/auth-hook.js";
import { registerBodyRules } from "./core/http/body.js";
import { clientErrorHandler, frameworkErrorHandler } from "./core/http/client-errors.js";
import "./core/http/context.js";
import { registerErrorHandler } from "./core/http/error-handler.js";
import { registerHealth } from "./core/http/health.js";
import { registerMetrics } from "./core/http/metrics.js";
import { registerNotFound } from "./core/http/not-found.js";
import { registerOpenApi } from "./core/http/openapi.js";
import { newRequestId } from "./core/http/request-id.js";
import { registerShutdownDrain } from "./core/http/shutdown.js";
import { validatorCompiler } from "./core/http/validation.js";
import { API_VERSION } from "./core/http/version.js";
import { registerIdempotency } from "./core/idempotency/idempotency.js";
import { internalAccountRoutes } from "./customers/account-routes.js";
import { bulkCustomerRoutes } from "./customers/bulk/routes.js";
import { customerRoutes } from "./customers/routes.js";
import { dashboardRoutes } from "./dashboard/routes.js";
import { discoveryRoutes } from "./discoveries/routes.js";
import { exchangeRateRoutes } from "./exchange-rates/routes.js";
import { executionGates } from "./execution-gates.js";
import { externalAccountRoutes } from "./external-accounts/routes.js";
import { invitationRoutes } from "./invitations/routes.js";
import { kycRoutes } from "./kyc/routes.js";
import { operatorRoutes } from "./operator/routes.js";
import { quoteRoutes } from "./payments/quote-routes.js";
import { paymentTransactionRoutes } from "./payments/transaction-routes.js";
import { transferRoutes } from "./payments/transfer-routes.js";
import { configRoutes } from "./platform-config/routes.js";
import { RequestLog } from "./sandbox/request-log.js";
import { sandboxRoutes } from "./sandbox/routes.js";
import { scaRoutes } from "./sca/routes.js";
import { stablecoinRoutes } from "./stablecoins/routes.js";
import { statementRoutes } from "./statements/routes.js";
import { transactionRoutes } from "./transactions/routes.js";
import { umaDirectoryRoutes } from "./uma/directory-routes.js";
import { createUmaQuoteRow } from "./uma/quotes.js";
import { umaProtocolRoutes, umaRoutes } from "./uma/routes.js";
import { walletAuthRoutes } from "./wallet-auth/routes.js";
import { eventRoutes } from "./webhooks/event-routes.js";
import { EVENT_TYPES } from "./webhooks/outbox.js";
import { webhookRoutes } from "./webhooks/routes.js";

export { API_VERSION };

/** Builds the HTTP app: core plugins first, then one registration per area under the version prefix. */
export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: newRequestId,
    bodyLimit: 2 * 1024 * 1024,
    forceCloseConnections: "idle",
    // Requests during the drain are answered in the catalogue's body (core/http/shutdown.ts).
    return503OnClosing: false,
    // Path parameters are checked by each route (an overlong id is that resource's 404), so the router's
    // own 100-character cap, which answers outside the error contract, is lifted to the URL size limit.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/docs")) route.config = { ...route.config, public: true };
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  registerErrorHandler(app);
  // Before any route: each route gets its measuring hook when it is added (core/http/metrics.ts).
  if (deps.metrics) registerMetrics(app, deps.metrics);
  // `paysvc logs tail` reads the sandbox's own request log (sandbox/request-log.ts).
  const requestLog = deps.mode === "sandbox" ? new RequestLog() : undefined;
  requestLog?.attach(app);
  registerShutdownDrain(app);
  registerNotFound(app);
  registerBodyRules(app);
  registerAuth(
    app,
    (clientId, secret) => authenticate(deps.db, clientId, secret),
    (accessToken) => authenticateAgent(deps.db, accessToken),
    apiAuthAttempts(deps.clock, { limitLoopback: deps.limitLoopbackAuthFailures ?? false }),
  );
  registerIdempotency(app, deps.db, deps.clock);
  await registerOpenApi(app, { eventTypes: EVENT_TYPES });
  registerHealth(app, deps.db);

  const prefix = `/${API_VERSION}`;
  await app.register(configRoutes, { prefix, deps });
  await app.register(tokenRoutes, { prefix, deps });
  await app.register(customerRoutes, { prefix, deps });
  await app.register(bulkCustomerRoutes, { prefix, deps });
  await app.register(internalAccountRoutes, { prefix, deps });
  await app.register(kycRoutes, { prefix, deps });
  await app.register(externalAccountRoutes, { prefix, deps });
  // The checks every quote execution passes (SCA, daily volume, terms), handed to the routes that execute.
  const gates = executionGates();
  await app.register(scaRoutes, { prefix, deps, gates });
  await app.register(transactionRoutes, { prefix, deps, cards: cardRows });
  await app.register(paymentTransactionRoutes, { prefix, deps });
  await app.register(statementRoutes, { prefix, deps });
  await app.register(quoteRoutes, { prefix, deps, gates, umaQuoter: createUmaQuoteRow });
  await app.register(exchangeRateRoutes, { prefix, deps });
  await app.register(umaRoutes, { prefix, deps });
  await app.register(umaDirectoryRoutes, { prefix, deps });
  await app.register(umaProtocolRoutes, { deps });
  await app.register(discoveryRoutes, { prefix, deps });
  await app.register(transferRoutes, { prefix, deps, gates });
  await app.register(cardRoutes, { prefix, deps });
  await app.register(walletAuthRoutes, { prefix, deps });
  await app.register(webhookRoutes, { prefix, deps });
  await app.register(eventRoutes, { prefix, deps });
  await app.register(invitationRoutes, { prefix, deps });
  await app.register(agentRoutes, { prefix, deps, gates, cards: cardRows });
  await app.register(stablecoinRoutes, { prefix, deps });
  if (deps.mode === "sandbox")
    await app.register(sandboxRoutes, { prefix, deps, ...(requestLog ? { requestLog } : {}) });
  await app.register(dashboardRoutes, { apiBase: prefix });
  if (deps.operatorSecret)
    await app.register(operatorRoutes, { prefix: "/_operator", deps, secret: deps.operatorSecret });

  await app.ready();
  return app;
}
