import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from "fastify";
import { ApiError } from "../errors/api-error.js";
import { constantTimeEqual } from "../hash.js";
import type { Metrics } from "../metrics/metrics.js";

/** The route label of requests no route matched (404, 405): one value, whatever the URL was. */
export const UNMATCHED_ROUTE = "unmatched";

interface Observer {
  observe(value: number): void;
}

/**
 * Measures every request and serves `GET /metrics` (docs/decisions.md "Metrics (issue 22)"). Each route
 * gets its own onResponse hook that knows its template, so a request costs two Map lookups and one
 * histogram observe: no label object, no URL parsing. Requests no route matched share the one
 * UNMATCHED_ROUTE label, so unknown paths cannot grow the series. Registered before any route.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  const observers = (route: string) => {
    const byMethod = new Map<string, Map<number, Observer>>();
    return (method: string, status: number): Observer => {
      let byStatus = byMethod.get(method);
      if (!byStatus) {
        byStatus = new Map();
        byMethod.set(method, byStatus);
      }
      let observer = byStatus.get(status);
      if (!observer) {
        observer = metrics.httpDuration.labels({ method, route, status_code: String(status) });
        byStatus.set(status, observer);
      }
      return observer;
    };
  };
  const measure = (observerOf: ReturnType<typeof observers>): onResponseHookHandler =>
    function measured(request: FastifyRequest, reply: FastifyReply, done: () => void) {
      observerOf(request.method, reply.statusCode).observe(reply.elapsedTime / 1000);
      done();
    };

  app.addHook("onRoute", (route) => {
    const hook = measure(observers(route.url));
    const own = route.onResponse;
    route.onResponse = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
  });
  const unmatched = observers(UNMATCHED_ROUTE);
  app.addHook("onResponse", (request, reply, done) => {
    if (request.is404) unmatched(request.method, reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });

  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    checkScraper(request, metrics.token);
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/**
 * `/metrics` is the operator's, not a platform's: it takes the operator's bearer token
 * (PAYSVC_METRICS_TOKEN), never API credentials, and answers in the catalogue's 401 otherwise.
 */
function checkScraper(request: FastifyRequest, token: string): void {
  const match = /^Bearer (\S+)$/i.exec(request.headers.authorization?.trim() ?? "");
  if (!match?.[1] || !constantTimeEqual(match[1], token))
    throw new ApiError("UNAUTHORIZED", {
      reason: "/metrics takes the metrics token (PAYSVC_METRICS_TOKEN) as a Bearer token.",
      headers: { "www-authenticate": 'Bearer realm="paysvc metrics"' },
    });
}
