import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { FastifySchemaCompiler } from "fastify";
import type { FieldError } from "../errors/api-error.js";
import { formats } from "./formats.js";
import { inspectInput, neutralizeNul } from "./input-walk.js";

function newAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    discriminator: true,
  });
  for (const [name, check] of Object.entries(formats))
    ajv.addFormat(name, { type: "string", validate: check });
  return ajv;
}

// Bodies are never coerced: a string "100" for an integer amount is an error (conventions §1.4).
// Query strings and path parameters arrive as text, so they are.
const bodyAjv = newAjv(false);
const textAjv = newAjv(true);
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Fastify validator compiler: strict JSON for bodies, coercing for querystring, params and headers.
 * Each value is also inspected (core/http/input-walk.ts) for what the schemas cannot express.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === "body" ? bodyAjv : textAjv;
  const key = schema as object;
  const cached = httpPart === "body" ? compiled.get(key) : undefined;
  const validate = cached ?? ajv.compile(key);
  if (httpPart === "body") compiled.set(key, validate);
  if (httpPart === "headers") return validate;
  const checked = ((data: unknown) => {
    if (httpPart === "params") neutralizeNul(data);
    const found = inspectInput(data, httpPart === "body");
    // Too deep: the schema's own walk (and every later reader) is spared the value.
    const valid = !found.tooDeep && validate(data);
    const errors = [...(found.tooDeep ? [] : (validate.errors ?? [])), ...found.errors];
    checked.errors = errors.length > 0 ? errors : null;
    return valid && errors.length === 0;
  }) as ValidateFunction;
  return checked;
};

function pathOf(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce(
      (path, segment) =>
        /^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment,
      "",
    );
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function toFieldError(error: ErrorObject): FieldError {
  const base = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { field: join(base, String(params.missingProperty)), message: "is required" };
    case "additionalProperties":
      return { field: join(base, String(params.additionalProperty)), message: "is not a recognized field" };
    case "format":
      return {
        field: base,
        constraint: { format: String(params.format) },
        message: `must be a valid ${params.format}`,
      };
    case "pattern":
      return {
        field: base,
        constraint: { pattern: String(params.pattern) },
        message: "does not match the required pattern",
      };
    case "enum":
      return {
        field: base,
        constraint: { enum: (params.allowedValues as unknown[]).map(String) },
        message: `must be one of ${(params.allowedValues as unknown[]).join(", ")}`,
      };
    case "minLength":
      return {
        field: base,
        constraint: { minLength: Number(params.limit) },
        message: error.message ?? "is too short",
      };
    case "maxLength":
      return {
        field: base,
        constraint: { maxLength: Number(params.limit) },
        message: error.message ?? "is too long",
      };
    case "discriminator":
      return { field: join(base, String(params.tag)), message: `does not name a supported variant` };
    default:
      return { field: base, message: error.message ?? "is invalid" };
  }
}

const weakKeywords = new Set(["anyOf", "oneOf", "if", "const", "type"]);

/**
 * Ajv errors to FieldErrors, one per field: the most specific error of each field wins (a `type` or
 * branch-mismatch error only when nothing more precise was found for that field).
 */
export function fieldErrors(errors: ErrorObject[], part: string): FieldError[] {
  const byField = new Map<string, { error: FieldError; weak: boolean }>();
  for (const raw of errors) {
    const error = toFieldError(raw);
    const weak = weakKeywords.has(raw.keyword);
    const existing = byField.get(error.field);
    if (!existing || (existing.weak && !weak)) byField.set(error.field, { error, weak });
  }
  // A branch mismatch on a parent adds nothing when a child field already explains it.
  const fields = [...byField.keys()];
  return [...byField.entries()]
    .filter(
      ([field, { weak }]) =>
        !(
          weak &&
          fields.some(
            (f) =>
              f !== field &&
              (f.startsWith(`${field}.`) || f.startsWith(`${field}[`) || (field === "" && f !== "")),
          )
        ),
    )
    .map(([, { error }]) =>
      error.field === "" ? { ...error, field: part === "body" ? "body" : part } : error,
    );
}
