import { isUtf8 } from "node:buffer";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.js";

const bodyMethods = new Set(["POST", "PUT", "PATCH"]);

const invalidFormat = (reason: string) => new ApiError("INVALID_REQUEST_FORMAT", { reason });

/**
 * JSON bodies, in place of Fastify's parser. The bytes must be UTF-8 (RFC 8259 §8.1): decoding them
 * leniently stored U+FFFD where they were not, so they are `400 INVALID_REQUEST_FORMAT` and nothing is
 * stored. JSON.parse keeps `__proto__` and `constructor` as plain members (it never sets a prototype),
 * so validation names them as unknown fields, where Fastify's parser called the whole body invalid JSON.
 */
function decodeJson(body: Buffer): unknown {
  if (body.length === 0) throw invalidFormat("The request body is empty; send a JSON object.");
  if (!isUtf8(body)) throw invalidFormat("The request body is not valid UTF-8.");
  const text = body.toString("utf8");
  try {
    // A leading byte order mark is allowed and ignored (RFC 8259 §8.1), as Fastify's parser did.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw invalidFormat("The request body is not valid JSON.");
  }
}

/**
 * Bodies are JSON objects (conventions §1.1). Routes marked `optionalBody` accept an empty body with no
 * Content-Type, which then validates as `{}`; other writes with a body schema need an object.
 */
export function registerBodyRules(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer" },
    async (_request: FastifyRequest, body: Buffer) => decodeJson(body),
  );
  app.addHook("preValidation", async (request) => {
    if (!bodyMethods.has(request.method)) return;
    const body = request.body;
    if (body === undefined || body === null) {
      if (request.routeOptions.config.optionalBody || !request.routeOptions.schema?.body) {
        if (request.routeOptions.schema?.body) request.body = {};
        return;
      }
      throw invalidFormat("The request body must be a JSON object.");
    }
    if (typeof body !== "object" || Array.isArray(body)) {
      throw invalidFormat("The request body must be a JSON object.");
    }
  });
}
