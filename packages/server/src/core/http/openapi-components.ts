import { hostedShapeNames } from "./openapi-hosted-names.js";

/**
 * Named components for the OpenAPI document (issue 22 §4). The route schemas stay anonymous TypeBox
 * objects, so request validation is untouched; only the document is rewritten: each operation's request
 * and success bodies get a name (the hosted document's where it has one), every object or union that
 * occurs more than once gets one too, and each occurrence of an equal subtree becomes a `$ref`. A code
 * generator then emits one named type per shape instead of a copy per use.
 */

type Schema = Record<string, unknown>;
type Json = unknown;

/** What the naming needs to know about one operation's bodies. */
export interface BodyNames {
  /** operationId, the fallback prefix of the names. */
  id: string;
  request?: string | undefined;
  response?: string | undefined;
}

const COMPONENT_PREFIX = "#/components/schemas/";

function isObject(value: Json): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Stable text of a JSON value (keys sorted), the identity of a subtree. */
function canonical(value: Json, memo: Map<object, string>): string {
  if (!isObject(value) && !Array.isArray(value)) return JSON.stringify(value) ?? "null";
  const known = memo.get(value);
  if (known !== undefined) return known;
  const text = Array.isArray(value)
    ? `[${value.map((v) => canonical(v, memo)).join(",")}]`
    : `{${Object.keys(value)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical(value[k], memo)}`)
        .join(",")}}`;
  memo.set(value, text);
  return text;
}

/** An object with properties, or a union of several branches: worth a name of its own. */
function nameable(schema: Schema): boolean {
  if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 1 && branches.some(isObject)) return true;
  }
  return false;
}

/** The direct subschemas of a schema, with a hint for naming each (property key, item, branch). */
function children(schema: Schema, own: string): Array<{ schema: Schema; hint: string }> {
  const out: Array<{ schema: Schema; hint: string }> = [];
  if (isObject(schema.properties)) {
    for (const [key, value] of Object.entries(schema.properties))
      if (isObject(value)) out.push({ schema: value, hint: key });
  }
  if (isObject(schema.items)) out.push({ schema: schema.items, hint: itemHint(own) });
  if (isObject(schema.additionalProperties))
    out.push({ schema: schema.additionalProperties, hint: `${own}Value` });
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      branches.forEach((branch, i) => {
        if (isObject(branch)) out.push({ schema: branch, hint: branchHint(branch, i) });
      });
  }
  return out;
}

/** An array's items are named after the array: `agreementConsents` → AgreementConsent. */
function itemHint(arrayHint: string): string {
  const name = pascal(arrayHint);
  if (name.endsWith("ies")) return `${name.slice(0, -3)}y`;
  if (name.endsWith("s") && !name.endsWith("ss")) return name.slice(0, -1);
  return `${name}Item`;
}

/** A union branch is named after the constant that selects it (`INDIVIDUAL`), else its position. */
function branchHint(branch: Schema, index: number): string {
  if (isObject(branch.properties)) {
    for (const value of Object.values(branch.properties)) {
      if (!isObject(value)) continue;
      if (typeof value.const === "string") return value.const;
      if (Array.isArray(value.enum) && value.enum.length === 1 && typeof value.enum[0] === "string")
        return value.enum[0];
    }
  }
  return `option${index + 1}`;
}

export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = /^[A-Z0-9]+$/.test(word) ? word.toLowerCase() : word;
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join("");
}

/** The hosted name of an object whose property names are exactly those of a hosted schema. */
function hostedName(schema: Schema): string | undefined {
  // One property says too little about what the object is (`{code}` is a currency and an OTP answer).
  if (!isObject(schema.properties) || Object.keys(schema.properties).length < 2) return undefined;
  return hostedShapeNames[Object.keys(schema.properties).sort().join(",")];
}

interface Slot {
  container: Schema | Json[];
  key: string | number;
}

class Namer {
  private readonly memo = new Map<object, string>();
  /** canonical text → component name. */
  readonly names = new Map<string, string>();
  /** component name → its (original, not yet rewritten) schema. */
  readonly schemas = new Map<string, Schema>();

  key(schema: Schema): string {
    return canonical(schema, this.memo);
  }

  /** Names the schema (once); a name taken by another shape gets a number. */
  claim(schema: Schema, wanted: string): string {
    const key = this.key(schema);
    const existing = this.names.get(key);
    if (existing) return existing;
    let name = wanted;
    for (let n = 2; this.schemas.has(name); n++) name = `${wanted}${n}`;
    this.names.set(key, name);
    this.schemas.set(name, schema);
    return name;
  }
}

/** Every schema slot of the document's operations: request bodies and responses by status. */
function bodySlots(
  doc: Schema,
): Array<{ slot: Slot; schema: Schema; method: string; path: string; role: "request" | string }> {
  const out: Array<{ slot: Slot; schema: Schema; method: string; path: string; role: string }> = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op)) continue;
      const add = (content: Json, role: string) => {
        if (!isObject(content)) return;
        for (const media of Object.values(content)) {
          if (isObject(media) && isObject(media.schema))
            out.push({ slot: { container: media, key: "schema" }, schema: media.schema, method, path, role });
        }
      };
      if (isObject(op.requestBody)) add(op.requestBody.content, "request");
      if (isObject(op.responses))
        for (const [status, response] of Object.entries(op.responses))
          if (isObject(response)) add(response.content, status);
    }
  }
  return out;
}

/**
 * Rewrites `doc` (a fresh copy, mutated in place) so that its bodies are named components referenced by
 * `$ref`. `bodyNames` gives each operation's names; `extra` adds documents' own schemas to name (webhook
 * payloads) as `name → schema`.
 */
export function nameComponents(
  doc: Schema,
  bodyNames: (method: string, path: string) => BodyNames | undefined,
  extra: Record<string, Schema> = {},
): void {
  const namer = new Namer();
  const slots = bodySlots(doc);
  const nested: Array<{ schema: Schema; hint: string; parent: string }> = [];
  // Hosted names first, so an equal shape used by several operations carries the hosted name.
  const ordered = [...slots].sort((a, b) => rank(a) - rank(b));
  function rank(entry: (typeof slots)[number]): number {
    const names = bodyNames(entry.method, entry.path);
    const explicit = entry.role === "request" ? names?.request : names?.response;
    return explicit && (entry.role === "request" || entry.role.startsWith("2")) ? 0 : 1;
  }
  for (const entry of ordered) {
    const status = Number(entry.role);
    if (!nameable(entry.schema) && !(status >= 400)) continue;
    const names = bodyNames(entry.method, entry.path);
    const base = pascal(names?.id ?? `${entry.method} ${entry.path}`);
    let wanted: string;
    if (status >= 400) wanted = `Error${status}`;
    else if (entry.role === "request") wanted = names?.request ?? `${base}Request`;
    else
      wanted =
        (status < 300 ? names?.response : undefined) ?? `${base}Response${status === 200 ? "" : status}`;
    namer.claim(entry.schema, wanted);
  }
  for (const [name, schema] of Object.entries(extra)) namer.claim(schema, name);

  // Nested shapes: named when they repeat or match a hosted schema.
  const counts = new Map<string, number>();
  const visit = (schema: Schema, parent: string, hint: string, top: boolean) => {
    if (!top && nameable(schema)) {
      const key = namer.key(schema);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      nested.push({ schema, hint, parent });
      if (namer.names.has(key)) return;
    }
    // A list's `data` items are named after the list (CustomerListResponse → Customer).
    const own = top ? `${parent.replace(/(List)?Response$/, "")}s` : hint;
    for (const child of children(
      schema,
      hint === "data" ? `${parent.replace(/(List)?Response$/, "")}s` : own,
    ))
      visit(child.schema, parent, child.hint, false);
  };
  for (const [name, schema] of namer.schemas) visit(schema, name, name, true);
  for (const entry of nested) {
    const key = namer.key(entry.schema);
    if (namer.names.has(key)) continue;
    const matched = hostedName(entry.schema);
    if ((counts.get(key) ?? 0) < 2 && !matched) continue;
    // A hosted name another shape already holds would only be numbered: the local name says more.
    const hosted = matched && !namer.schemas.has(matched) ? matched : undefined;
    const own = pascal(entry.hint);
    namer.claim(entry.schema, hosted ?? (/^option\d+$/.test(entry.hint) ? `${entry.parent}${own}` : own));
  }

  // Rewrite: each named subtree becomes a $ref, except at its own definition.
  const rewrite = (schema: Schema, self: string | null): Schema => {
    const name = namer.names.get(namer.key(schema));
    if (name && name !== self) return { $ref: `${COMPONENT_PREFIX}${name}` };
    const copy: Schema = { ...schema };
    if (isObject(copy.properties))
      copy.properties = Object.fromEntries(
        Object.entries(copy.properties).map(([k, v]) => [k, isObject(v) ? rewrite(v, null) : v]),
      );
    if (isObject(copy.items)) copy.items = rewrite(copy.items, null);
    if (isObject(copy.additionalProperties))
      copy.additionalProperties = rewrite(copy.additionalProperties, null);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const branches = copy[key];
      if (Array.isArray(branches)) copy[key] = branches.map((b) => (isObject(b) ? rewrite(b, null) : b));
    }
    return copy;
  };
  const components = (doc.components ?? {}) as Schema;
  const existing = isObject(components.schemas) ? components.schemas : {};
  const named: Schema = { ...existing };
  for (const [name, schema] of [...namer.schemas].sort(([a], [b]) => a.localeCompare(b)))
    named[name] = rewrite(schema, name);
  for (const { slot, schema } of slots)
    (slot.container as Schema)[slot.key as string] = rewrite(schema, null);
  doc.components = { ...components, schemas: named };
}
