import { pascal } from "./openapi-components.js";

/**
 * The document's `webhooks` section (OpenAPI 3.1): one entry per event type, each a POST to the
 * platform's endpoint with the envelope `{id, type, timestamp, data}` (conventions §7.1) as its body,
 * `data` referencing the resource's component, and the `X-Service-Signature` scheme (§7.2).
 */

export const WEBHOOK_SIGNATURE_SCHEME = {
  type: "apiKey" as const,
  in: "header" as const,
  name: "X-Service-Signature",
  description:
    "`X-Service-Signature: t=<unix seconds>,v1=<base64 signature>,kid=<kid>`: ECDSA P-256 with SHA-256, DER-encoded, standard base64 with padding, over the ASCII decimal `t`, `.`, then the raw body bytes; a fresh `t` and signature per attempt. Verify with the key `kid` of `GET /webhooks/signing-keys` (a JWKS; refetch once on an unknown kid), reject a `t` more than 300 s away from now, and deduplicate on the envelope `id`.",
};

const signatureHeader = {
  name: "X-Service-Signature",
  in: "header",
  required: true,
  description: "The event's signature; see the WebhookSignature security scheme.",
  schema: { type: "string", pattern: "^t=\\d+,v1=[A-Za-z0-9+/]+=*,kid=[A-Za-z0-9_-]+$" },
};

/**
 * The component each event's `data` has, by the event type's resource (the part before the dot). Card
 * transactions are the CARD branch of the transaction union, as `GET /transactions` returns them.
 */
const DATA_COMPONENT: Record<string, string[]> = {
  OUTGOING_PAYMENT: ["TransactionOneOf"],
  INCOMING_PAYMENT: ["TransactionOneOf"],
  CUSTOMER: ["CustomerOneOf"],
  VERIFICATION: ["Verification"],
  EXTERNAL_ACCOUNT: ["ExternalAccount"],
  INTERNAL_ACCOUNT: ["InternalAccount"],
  CARD: ["Card"],
  CARD_TRANSACTION: ["TransactionOneOf"],
  INVITATION: ["UmaInvitation"],
  BULK_UPLOAD: ["BulkCustomerImportJob"],
  AGENT_ACTION: ["AgentAction"],
};

function dataSchema(type: string, components: Record<string, unknown>): Record<string, unknown> {
  const description = "The post-change resource, in the shape the API returns for it.";
  if (type === "TEST")
    return { type: "object", additionalProperties: false, description: "Always `{}` for TEST." };
  const resource = type.slice(0, type.indexOf("."));
  const name = (DATA_COMPONENT[resource] ?? []).find((candidate) => candidate in components);
  return name ? { $ref: `#/components/schemas/${name}`, description } : { description };
}

/** Adds the `webhooks` section and one payload component per event type to `doc` (mutated). */
export function addWebhooks(doc: Record<string, unknown>, eventTypes: readonly string[]): void {
  const components = (doc.components ?? {}) as Record<string, unknown>;
  const schemas = (components.schemas ?? {}) as Record<string, unknown>;
  const webhooks: Record<string, unknown> = {};
  for (const type of eventTypes) {
    const name = `${pascal(type)}Webhook`;
    schemas[name] = {
      type: "object",
      required: ["id", "type", "timestamp", "data"],
      properties: {
        id: {
          type: "string",
          pattern: "^Webhook:[0-9a-f-]{36}$",
          description: "`Webhook:<uuid>`, the same on every retry and re-send: deduplicate on it.",
        },
        type: { type: "string", const: type },
        timestamp: { type: "string", format: "date-time", description: "When the event was raised." },
        data: dataSchema(type, schemas),
      },
    };
    webhooks[type] = {
      post: {
        operationId: `${pascal(type).charAt(0).toLowerCase()}${pascal(type).slice(1)}Webhook`,
        summary: `${type} event`,
        description: `Sent to the platform's webhook endpoint when a ${type} event is raised. A 2xx answer (or 409, already received) ends the delivery; anything else is retried with backoff for up to 7 days${type === "TEST" ? " (TEST events are never retried)" : ""}. Order is not guaranteed: compare \`data.updatedAt\`.`,
        tags: ["Webhooks"],
        security: [{ WebhookSignature: [] }],
        parameters: [signatureHeader],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          "200": { description: "Received (any 2xx)." },
          "409": { description: "Already received: retries stop." },
        },
      },
    };
  }
  doc.components = { ...components, schemas };
  doc.webhooks = webhooks;
}
