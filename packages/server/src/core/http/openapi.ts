import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { catalogue } from "../errors/catalogue.js";
import { ErrorBody } from "./schemas.js";
import { API_VERSION } from "./version.js";

/** The catalogue's error body for one status: `code` lists the catalogue codes answered with it. */
function errorBodyFor(status: number): Record<string, unknown> {
  const codes = Object.entries(catalogue)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => code);
  const code = codes.length ? { ...ErrorBody.properties.code, enum: codes } : ErrorBody.properties.code;
  return {
    ...ErrorBody,
    description: "The catalogue's error body `{code, reason, details?}`.",
    properties: { ...ErrorBody.properties, code },
  };
}

/** Every documented error status (4xx/5xx) uses the catalogue's body with that status's codes. */
function withCatalogueErrors(response: unknown): unknown {
  if (typeof response !== "object" || response === null) return response;
  return Object.fromEntries(
    Object.entries(response).map(([status, schema]) =>
      Number(status) >= 400 ? [status, errorBodyFor(Number(status))] : [status, schema],
    ),
  );
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas that also validate requests, and served
 * at /{version}/openapi.json; /docs renders it (Swagger UI, served locally, no CDN).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "paysvc",
        version: API_VERSION,
        description:
          "Self-hostable cross-border payments platform API. Authenticate with HTTP Basic: the API token's clientId and clientSecret.",
      },
      servers: [{ url: `/${API_VERSION}` }],
      components: {
        securitySchemes: {
          BasicAuth: { type: "http", scheme: "basic" },
          AgentAuth: {
            type: "http",
            scheme: "bearer",
            description: "An agent's accessToken from POST /agents/device-codes/{code}/redeem.",
          },
        },
      },
      security: [{ BasicAuth: [] }],
    },
    transform: ({ schema, url, route }) => {
      const prefix = `/${API_VERSION}`;
      const hidden = !url.startsWith(prefix) || route.config?.public === true;
      const documented = schema?.response
        ? { ...schema, response: withCatalogueErrors(schema.response) }
        : schema;
      return {
        schema: hidden ? { ...schema, hide: true } : documented,
        url: url.startsWith(prefix) ? url.slice(prefix.length) || "/" : url,
      };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    uiConfig: { docExpansion: "list", deepLinking: true },
    // The page may run only its own scripts and may not be framed (clickjacking of "Try it out"). The
    // plugin's policy upgrades requests to https, which breaks the page on a plain-http loopback sandbox.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'")
        .replace(/;?\s*upgrade-insecure-requests;?/, ";")
        .replace(/;;+/g, ";"),
    uiHooks: {
      onRequest: async (_request, reply) => {
        reply.header("x-frame-options", "DENY");
      },
    },
  });
  app.get(`/${API_VERSION}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
