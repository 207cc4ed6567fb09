import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors/api-error.js";

const bodyMethods = new Set(["POST", "PUT", "PATCH"]);

/**
 * Bodies are JSON objects (conventions §1.1). Routes marked `optionalBody` accept an empty body with no
 * Content-Type, which then validates as `{}`; other writes with a body schema need an object.
 */
export function registerBodyRules(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (!bodyMethods.has(request.method)) return;
    const body = request.body;
    if (body === undefined || body === null) {
      if (request.routeOptions.config.optionalBody || !request.routeOptions.schema?.body) {
        if (request.routeOptions.schema?.body) request.body = {};
        return;
      }
      throw new ApiError("INVALID_REQUEST_FORMAT", { reason: "The request body must be a JSON object." });
    }
    if (typeof body !== "object" || Array.isArray(body)) {
      throw new ApiError("INVALID_REQUEST_FORMAT", { reason: "The request body must be a JSON object." });
    }
  });
}
