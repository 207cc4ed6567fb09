import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { catalogue, isErrorCode } from "../../src/core/errors/catalogue.js";
import { formats } from "../../src/core/http/formats.js";

/**
 * Issue 9 part 1, the response contract: every response a test sees is checked against the service's
 * own OpenAPI document. The request's method and path pick the operation (the same static-before-
 * parameter precedence as the server's router); the status must be declared for it, the content type
 * must be the declared one (no body where none is declared) and the body must match the declared
 * schema. Every error body must also carry a catalogue code answered with the catalogue's status.
 * Responses outside every operation (unknown path, other method) must be the catalogue's error body.
 * Validators are compiled once per (operation, status) and cached for the test file's process.
 */

type Schema = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: Schema }>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface ObservedResponse {
  method: string;
  /** Path relative to the versioned base URL (query string allowed); null when outside it. */
  path: string | null;
  status: number;
  contentType: string;
  text: string;
}

interface Route {
  operation: string;
  responses: Record<string, ResponseObject>;
}

const ErrorBodySchema: Schema = {
  type: "object",
  required: ["code", "reason"],
  additionalProperties: false,
  properties: {
    code: { type: "string", minLength: 1 },
    reason: { type: "string", minLength: 1 },
    details: { type: "object" },
  },
};

const COMPONENTS_ID = "openapi-components";

/** The body schema with its `#/components/…` refs resolved against the document's components, added once. */
function toComponentRefs(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${COMPONENTS_ID}#/components/`));
}

function newAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    discriminator: true,
    addUsedSchema: false,
    logger: false,
  });
  for (const [name, check] of Object.entries(formats))
    ajv.addFormat(name, { type: "string", validate: check });
  return ajv;
}

export class ResponseContract {
  private readonly router = FindMyWay({ maxParamLength: 1_000_000, ignoreTrailingSlash: false });
  private readonly ajv = newAjv();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly errorValidator: ValidateFunction;
  constructor(doc: OpenApiDocument) {
    // The named schemas are added once; each body's `#/components/…` refs are pointed at them. Embedding the
    // whole document's components in every validator made each compile walk all of them.
    this.ajv.addSchema({ $id: COMPONENTS_ID, components: doc.components ?? {} });
    for (const [path, item] of Object.entries(doc.paths)) {
      const template = path.replace(/\{([^}]+)\}/g, ":$1");
      for (const [method, op] of Object.entries(item)) {
        const upper = method.toUpperCase() as HTTPMethod;
        const route: Route = { operation: `${upper} ${path}`, responses: op.responses ?? {} };
        this.router.on(upper, template, () => undefined, route);
      }
    }
    this.errorValidator = this.ajv.compile(ErrorBodySchema);
  }

  /** The broken rules for one response, as one message; null when it keeps the contract. */
  check(observed: ObservedResponse): string | null {
    const method = observed.method.toUpperCase() === "HEAD" ? "GET" : observed.method.toUpperCase();
    const pathOnly = observed.path === null ? null : (observed.path.split("?")[0] ?? "/");
    const found = pathOnly === null ? null : this.router.find(method as HTTPMethod, pathOnly);
    const route = (found?.store as Route | undefined) ?? null;
    if (!route) {
      // Never reached an operation: unknown path, other method, outside the API (health, docs).
      if (observed.status < 400) return null;
      const where = `${observed.method} ${observed.path ?? "(outside the API)"} (no operation)`;
      return this.checkErrorBody(where, observed, this.errorValidator);
    }
    const where = `${route.operation}`;
    const declared = route.responses[String(observed.status)] ?? route.responses.default;
    if (!declared) {
      return `${where}: status ${observed.status} is not declared (declared: ${Object.keys(route.responses).join(", ")})${bodyHint(observed)}`;
    }
    const content = declared.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0) {
      if (observed.text.length > 0 && observed.method.toUpperCase() !== "HEAD")
        return `${where}: status ${observed.status} declares no body, got ${observed.contentType || "no content type"}: ${observed.text.slice(0, 200)}`;
      return null;
    }
    const mediaType = (observed.contentType.split(";")[0] ?? "").trim().toLowerCase();
    const type = types.find((t) => t.toLowerCase() === mediaType);
    if (!type) {
      return `${where}: status ${observed.status} declares ${types.join(", ")}, got content type "${observed.contentType}"${bodyHint(observed)}`;
    }
    const schema = content[type]?.schema;
    if (!schema || !type.includes("json")) return null;
    if (observed.method.toUpperCase() === "HEAD") return null;
    const key = `${route.operation} ${observed.status} ${type}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toComponentRefs(schema));
      this.validators.set(key, validate);
    }
    if (observed.status >= 400) return this.checkErrorBody(`${where}`, observed, validate);
    const parsed = parse(observed.text);
    if (parsed === undefined)
      return `${where}: status ${observed.status} body is not JSON${bodyHint(observed)}`;
    if (!validate(parsed))
      return `${where}: status ${observed.status} body ${formatErrors(validate.errors)}${bodyHint(observed)}`;
    return null;
  }

  private checkErrorBody(
    where: string,
    observed: ObservedResponse,
    validate: ValidateFunction,
  ): string | null {
    if (!observed.contentType.toLowerCase().includes("application/json"))
      return `${where}: error ${observed.status} is not JSON (content type "${observed.contentType}")${bodyHint(observed)}`;
    const parsed = parse(observed.text);
    if (parsed === undefined)
      return `${where}: error ${observed.status} body is not JSON${bodyHint(observed)}`;
    if (!validate(parsed))
      return `${where}: error ${observed.status} body ${formatErrors(validate.errors)}${bodyHint(observed)}`;
    if (!this.errorValidator(parsed))
      return `${where}: error ${observed.status} is not the catalogue's body ${formatErrors(this.errorValidator.errors)}${bodyHint(observed)}`;
    const code = String((parsed as { code: unknown }).code);
    if (!isErrorCode(code)) return `${where}: error code ${code} is not in the catalogue`;
    if (catalogue[code].status !== observed.status)
      return `${where}: ${code} answered ${observed.status}, the catalogue says ${catalogue[code].status}`;
    return null;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  const list = (errors ?? []).slice(0, 5).map((e) => {
    const extra =
      e.keyword === "additionalProperties"
        ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
        : e.keyword === "enum"
          ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
          : "";
    return `at "${e.instancePath || "/"}" (schema ${e.schemaPath}) ${e.message ?? e.keyword}${extra}`;
  });
  return `does not match the declared schema: ${list.join("; ")}`;
}

function bodyHint(observed: ObservedResponse): string {
  const text = observed.text.length > 300 ? `${observed.text.slice(0, 300)}…` : observed.text;
  return text ? `\n  body: ${text}` : "";
}
