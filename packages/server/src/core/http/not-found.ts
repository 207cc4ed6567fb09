import type { FastifyInstance } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { ApiError } from "../errors/api-error.js";

const methods: HTTPMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * Unknown path → `404 NOT_FOUND`; known path with another method → `405 METHOD_NOT_ALLOWED` with `Allow`.
 * Fastify answers both with its 404, so a second router that knows every registered path tells them apart.
 */
export function registerNotFound(app: FastifyInstance): void {
  const paths = FindMyWay();
  app.addHook("onRoute", (route) => {
    const routeMethods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of routeMethods) {
      if (methods.includes(method as HTTPMethod) && !paths.hasRoute(method as HTTPMethod, route.url)) {
        paths.on(method as HTTPMethod, route.url, () => undefined);
      }
    }
  });
  app.setNotFoundHandler((request) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = methods.filter((method) => paths.find(method, path) !== null);
    if (allowed.length > 0) {
      if (allowed.includes("GET")) allowed.push("HEAD");
      throw new ApiError("METHOD_NOT_ALLOWED", {
        reason: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}.`,
        headers: { allow: allowed.join(", ") },
      });
    }
    throw new ApiError("NOT_FOUND", { reason: `No route ${request.method} ${path}.` });
  });
}
