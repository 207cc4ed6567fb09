import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formats } from "../../src/core/http/formats.js";
import { operationDocs } from "../../src/core/http/operation-docs.js";
import { EVENT_TYPES } from "../../src/webhooks/outbox.js";
import { startServer, type TestServer } from "../harness.js";

/** Issue 22 §4: an OpenAPI document fit for code generators. */

type Schema = Record<string, unknown>;
interface Media {
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Schema> };
  webhooks: Record<string, { post: Operation & { security: unknown } }>;
}

let server: TestServer;
let doc: Document;

beforeAll(async () => {
  server = await startServer();
  doc = (await server.client.get<Document>("/openapi.json", { auth: null })).body;
}, 600_000);
afterAll(() => server.close());

function operations(): Array<{ key: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
}

/** An empty object body (`{}`) is left inline: there is nothing to name. */
const isEmptyObject = (schema: Schema) =>
  typeof schema.properties === "object" &&
  schema.properties !== null &&
  Object.keys(schema.properties).length === 0 &&
  !schema.anyOf &&
  !schema.oneOf;

const componentName = (schema: Schema | undefined) =>
  typeof schema?.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;

describe("operations", () => {
  test("every documented operation has an entry in the operation table (operationId, summary) and a description", () => {
    const missing = operations()
      .filter(({ key }) => !operationDocs[key])
      .map(({ key }) => key);
    expect(
      missing,
      `operations without an entry in core/http/operation-docs*.ts:\n${missing.join("\n")}`,
    ).toEqual([]);
    const incomplete = operations()
      .filter(({ op }) => !op.operationId || !op.summary || !op.description)
      .map(
        ({ key, op }) =>
          `${key}: ${op.operationId ? "" : "operationId "}${op.summary ? "" : "summary "}${op.description ? "" : "description"}`,
      );
    expect(incomplete, `operations lacking a field:\n${incomplete.join("\n")}`).toEqual([]);
  });

  test("operationIds are unique, and the table has no entry for an operation that does not exist", () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const documented = new Set(operations().map(({ key }) => key));
    // The production-only view has fewer routes; this app is a sandbox one, so every entry must exist.
    expect(Object.keys(operationDocs).filter((key) => !documented.has(key))).toEqual([]);
  });

  test("the hosted document's operationIds are used where it has the operation", () => {
    expect(doc.paths["/customers"]?.post?.operationId).toBe("createCustomer");
    expect(doc.paths["/quotes/{quoteId}/execute"]?.post?.operationId).toBe("executeQuote");
    expect(doc.paths["/sandbox/internal-accounts/{accountId}/fund"]?.post?.operationId).toBe(
      "sandboxFundInternalAccount",
    );
  });

  test("sandbox operations' descriptions name the sandbox magic values", () => {
    const description = (path: string, method = "post") => doc.paths[path]?.[method]?.description ?? "";
    expect(description("/sandbox/cards/{cardId}/simulate/authorization")).toMatch(
      /`002`.*INSUFFICIENT_FUNDS/s,
    );
    expect(description("/verifications")).toMatch(/`001`.*PENDING.*`002`.*REJECTED/s);
    expect(description("/quotes/{quoteId}/execute")).toMatch(/`005`.*PAYOUT_RETURNED/s);
    expect(description("/customers/external-accounts")).toMatch(/`008`.*`009`/s);
    expect(description("/cards")).toMatch(/`001` stays PROCESSING/);
    expect(description("/sandbox/uma/receive")).toContain("$success");
    expect(description("/auth/credentials/{id}/verify")).toContain("`000000`");
  });
});

describe("named components", () => {
  test("request and response bodies (other than `{}`) are named components referenced by $ref, each resolving", () => {
    const inline: string[] = [];
    for (const { key, op } of operations()) {
      const request = op.requestBody?.content["application/json"]?.schema;
      if (request && !componentName(request) && !isEmptyObject(request)) inline.push(`${key} request`);
      for (const [status, response] of Object.entries(op.responses)) {
        const body = response.content?.["application/json"]?.schema;
        if (body && !componentName(body) && !isEmptyObject(body)) inline.push(`${key} ${status}`);
      }
    }
    expect(inline).toEqual([]);
    const refs = new Set<string>();
    JSON.stringify(doc, (k, v) => {
      if (k === "$ref" && typeof v === "string") refs.add(v);
      return v;
    });
    const dangling = [...refs].filter(
      (ref) => !(ref.replace("#/components/schemas/", "") in doc.components.schemas),
    );
    expect(dangling).toEqual([]);
  });

  test("no component name is positional: none is another's name plus a number, or a union branch's index", () => {
    const names = Object.keys(doc.components.schemas);
    // Names may hold digits of their own (Error404, CardTokenization2faConfig); a number appended to
    // another component's name, or an `Option<n>`/`Variant<n>` branch index, only says "the other one".
    const positional = names.filter((name) => {
      const base = /^(.*?[^0-9])[0-9]+$/.exec(name)?.[1];
      return base !== undefined && (base in doc.components.schemas || /(Option|Variant)$/.test(base));
    });
    expect(positional).toEqual([]);
  });

  test("bodies carry the hosted document's schema names where it has the operation", () => {
    const body = (path: string, method: string, status?: string) => {
      const op = doc.paths[path]?.[method];
      const media = status ? op?.responses[status]?.content : op?.requestBody?.content;
      return componentName(media?.["application/json"]?.schema);
    };
    expect(body("/customers", "post")).toBe("CustomerCreateRequestOneOf");
    expect(body("/customers", "post", "201")).toBe("CustomerOneOf");
    expect(body("/quotes/{quoteId}", "get", "200")).toBe("Quote");
    expect(body("/customers", "get", "200")).toBe("CustomerListResponse");
    expect(body("/customers", "get", "400")).toBe("Error400");
    // A nested shape repeated across bodies is one component (hosted name CurrencyAmount).
    expect(doc.components.schemas.CurrencyAmount).toBeDefined();
  });
});

describe("headers", () => {
  const headers = (path: string, method: string) =>
    (doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);

  test("signed-retry operations declare Service-Wallet-Signature and Request-Id", () => {
    for (const [path, method] of [
      ["/customers/{customerId}", "patch"],
      ["/internal-accounts/{accountId}/export", "post"],
      ["/auth/sessions/{id}", "delete"],
    ] as const)
      expect(headers(path, method), `${method} ${path}`).toEqual(
        expect.arrayContaining(["Service-Wallet-Signature", "Request-Id"]),
      );
    expect(headers("/quotes/{quoteId}/execute", "post")).toContain("Service-Wallet-Signature");
  });

  test("POSTs that take Idempotency-Key declare it; signed retries, which refuse it, do not", () => {
    expect(headers("/quotes", "post")).toContain("Idempotency-Key");
    expect(headers("/customers", "post")).toContain("Idempotency-Key");
    expect(headers("/auth/credentials", "post")).not.toContain("Idempotency-Key");
    expect(headers("/customers", "get")).not.toContain("Idempotency-Key");
  });
});

describe("webhooks", () => {
  test("every event type is in the document's webhooks section, with its payload schema and the signature scheme", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    expect(doc.components.securitySchemes.WebhookSignature).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-Service-Signature",
    });
    for (const [type, { post }] of Object.entries(doc.webhooks)) {
      expect(post.security, type).toEqual([{ WebhookSignature: [] }]);
      const name = componentName(post.requestBody?.content["application/json"]?.schema);
      const payload = doc.components.schemas[name ?? ""] as { properties: Record<string, Schema> };
      expect(payload.properties.type, type).toEqual({ type: "string", const: type });
    }
    const data = (type: string) =>
      (
        doc.components.schemas[
          componentName(doc.webhooks[type]?.post.requestBody?.content["application/json"]?.schema) ?? ""
        ] as {
          properties: { data: Schema };
        }
      ).properties.data;
    expect(componentName(data("CARD.STATUS_CHANGE"))).toBe("Card");
  });
});

describe("examples", () => {
  test("every operation with a JSON request body has an example body for Try it out", () => {
    const missing = operations()
      .filter(
        ({ op }) =>
          op.requestBody?.content["application/json"] &&
          op.requestBody.content["application/json"].example === undefined,
      )
      .map(({ key }) => key);
    expect(
      missing,
      `request bodies without an example (core/http/operation-examples-*.ts):\n${missing.join("\n")}`,
    ).toEqual([]);
  });

  test("every example in the document validates against its schema", () => {
    const ajv = new Ajv({ strict: false, discriminator: true, allErrors: true });
    for (const [name, check] of Object.entries(formats))
      ajv.addFormat(name, { type: "string", validate: check });
    const examples: Array<{ where: string; schema: Schema; example: unknown }> = [];
    for (const { key, op } of operations()) {
      const media = op.requestBody?.content["application/json"];
      if (media?.schema && media.example !== undefined)
        examples.push({ where: key, schema: media.schema, example: media.example });
    }
    // Examples inside schemas too (a property's `examples`).
    JSON.stringify(doc.components.schemas, function (this: Schema, k, v) {
      if (k === "examples" && Array.isArray(v))
        for (const example of v)
          examples.push({ where: `schema example ${JSON.stringify(example)}`, schema: this, example });
      return v;
    });
    expect(examples.length).toBeGreaterThanOrEqual(90);
    const invalid = examples
      .map(({ where, schema, example }) => {
        const { examples: _examples, ...own } = schema;
        const validate = ajv.compile({ ...own, components: doc.components });
        return validate(example) ? null : `${where}: ${ajv.errorsText(validate.errors)}`;
      })
      .filter(Boolean);
    expect(invalid).toEqual([]);
  });
});

describe("Swagger UI", () => {
  test("the API reference carries paysvc's name and logo, not the framework's", async () => {
    const page = await server.client.get(`${server.origin}/docs/`, { auth: null });
    expect(page.text).toContain("<title>paysvc API reference");
    const init = await server.client.get(`${server.origin}/docs/static/swagger-initializer.js`, {
      auth: null,
    });
    expect(init.status).toBe(200);
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init.text)?.[1];
    expect(Buffer.from(logo ?? "", "base64").toString()).toContain(">paysvc<");
  });
});
