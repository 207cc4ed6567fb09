import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { catalogue } from "../errors/catalogue.js";
import { nameComponents } from "./openapi-components.js";
import { addRequestExamples } from "./openapi-examples.js";
import { documentHeaders } from "./openapi-headers.js";
import { paysvcFavicon, paysvcLogo } from "./openapi-logo.js";
import { addWebhooks, WEBHOOK_SIGNATURE_SCHEME } from "./openapi-webhooks.js";
import { operationDocs, operationKey } from "./operation-docs.js";
import { operationExamples } from "./operation-examples.js";
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

/** The route's description, else the table's, followed by the table's note (sandbox magic values). */
function describe(own: unknown, key: string): string | undefined {
  const doc = operationDocs[key];
  const text = typeof own === "string" && own ? own : doc?.description;
  const parts = [text, doc?.note].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join("\n\n") : undefined;
}

export interface OpenApiOptions {
  /** The webhook event types (webhooks/outbox.ts), documented in the document's `webhooks` section. */
  eventTypes?: readonly string[];
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas that also validate requests, and served
 * at /{version}/openapi.json; /docs renders it (Swagger UI, served locally, no CDN). Each operation gets
 * its operationId, summary and description from one table (operation-docs.ts); the finished document's
 * bodies become named components (openapi-components.ts). Both touch only the document, never the
 * schemas that validate.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions = {}): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "paysvc",
        version: API_VERSION,
        description:
          "Self-hostable cross-border payments platform API. Authenticate with HTTP Basic: the API token's clientId and clientSecret. Webhook events are described under `webhooks`, signed with `X-Service-Signature`.",
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
          WebhookSignature: WEBHOOK_SIGNATURE_SCHEME,
        },
      },
      security: [{ BasicAuth: [] }],
    },
    transform: ({ schema, url, route }) => {
      const prefix = `/${API_VERSION}`;
      const hidden = !url.startsWith(prefix) || route.config?.public === true;
      const path = url.startsWith(prefix) ? url.slice(prefix.length) || "/" : url;
      if (hidden) return { schema: { ...schema, hide: true }, url: path };
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      const key = operationKey(method, path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"));
      const doc = operationDocs[key];
      const description = describe(schema?.description, key);
      const headers = documentHeaders(key, method, route.config, schema?.headers);
      const documented = {
        ...schema,
        ...(schema?.response ? { response: withCatalogueErrors(schema.response) } : {}),
        ...(doc ? { operationId: doc.id, summary: doc.summary } : {}),
        ...(description ? { description } : {}),
        ...(headers ? { headers } : {}),
      };
      return { schema: documented, url: path };
    },
    transformObject: (documentObject) => {
      const source =
        "openapiObject" in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      const doc = structuredClone(source) as Record<string, unknown>;
      nameComponents(doc, (method, path) => operationDocs[operationKey(method, path)]);
      if (options.eventTypes) addWebhooks(doc, options.eventTypes);
      addRequestExamples(doc, (method, path) => {
        const key = operationKey(method, path);
        return operationDocs[key]?.example ?? operationExamples[key];
      });
      return doc as typeof source;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    uiConfig: { docExpansion: "list", deepLinking: true },
    logo: { type: "image/svg+xml", content: Buffer.from(paysvcLogo), href: "/docs/", target: "_self" },
    theme: {
      title: "paysvc API reference (Swagger UI)",
      favicon: [
        {
          filename: "paysvc.svg",
          rel: "icon",
          sizes: "any",
          type: "image/svg+xml",
          content: Buffer.from(paysvcFavicon),
        },
      ],
    },
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
