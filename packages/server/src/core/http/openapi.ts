import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { API_VERSION } from "./version.js";

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
      components: { securitySchemes: { BasicAuth: { type: "http", scheme: "basic" } } },
      security: [{ BasicAuth: [] }],
    },
    transform: ({ schema, url, route }) => {
      const prefix = `/${API_VERSION}`;
      const hidden = !url.startsWith(prefix) || route.config?.public === true;
      return {
        schema: hidden ? { ...schema, hide: true } : schema,
        url: url.startsWith(prefix) ? url.slice(prefix.length) || "/" : url,
      };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    uiConfig: { docExpansion: "list", deepLinking: true },
  });
  app.get(`/${API_VERSION}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
