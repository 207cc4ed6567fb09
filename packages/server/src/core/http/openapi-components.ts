import {
  type BodyNames,
  bodyCandidates,
  branchHint,
  contextOf,
  isObject,
  itemHint,
  knownShapeName,
  nameable,
  nestedCandidates,
  type Occurrence,
  pascal,
  realBranches,
  type Schema,
} from "./openapi-component-names.js";

export type { BodyNames };
export { pascal };

/**
 * Named components for the OpenAPI document (issue 22 §4). The route schemas stay anonymous TypeBox
 * objects, so request validation is untouched; only the document is rewritten: each operation's request
 * and success bodies get a name (the hosted document's where it has one), every object or union that
 * occurs more than once gets one too, and each occurrence of an equal subtree becomes a `$ref`. A code
 * generator then emits one named type per shape instead of a copy per use. Two different shapes that want
 * one name are told apart by where they occur (`PolicyAccountRule`, `BeneficiaryAddress`), never by a number.
 */

const COMPONENT_PREFIX = "#/components/schemas/";

/** Stable text of a JSON value (keys sorted), the identity of a subtree. */
function canonical(value: unknown, memo: Map<object, string>): string {
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

/** The direct subschemas of a schema, with a hint for naming each (property key, item, branch). */
function children(schema: Schema, own: string): Array<{ schema: Schema; hint: string; key?: string }> {
  const out: Array<{ schema: Schema; hint: string; key?: string }> = [];
  if (isObject(schema.properties)) {
    for (const [key, value] of Object.entries(schema.properties))
      if (isObject(value)) out.push({ schema: value, hint: key, key });
  }
  if (isObject(schema.items)) out.push({ schema: schema.items, hint: itemHint(own) });
  if (isObject(schema.additionalProperties))
    out.push({ schema: schema.additionalProperties, hint: `${own}Value` });
  const sole = realBranches(schema).length === 1;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      branches.forEach((branch, i) => {
        if (isObject(branch)) out.push({ schema: branch, hint: branchHint(branch, i, own, sole) });
      });
  }
  return out;
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

  /** Whether `name` is free for `schema` (unused, or already this shape's). */
  free(schema: Schema, name: string): boolean {
    const taken = this.schemas.get(name);
    return !taken || this.key(taken) === this.key(schema);
  }

  /**
   * Names the schema (once) with the first free candidate. Should every candidate be taken, a number
   * keeps the document valid, and the document test, which forbids such names, says which shape needs a
   * better candidate.
   */
  claim(schema: Schema, candidates: Array<string | undefined>): string {
    const key = this.key(schema);
    const existing = this.names.get(key);
    if (existing) return existing;
    const wanted = candidates.filter((c): c is string => Boolean(c));
    let name = wanted.find((candidate) => this.free(schema, candidate));
    for (let n = 2; name === undefined; n++)
      if (!this.schemas.has(`${wanted[0]}${n}`)) name = `${wanted[0]}${n}`;
    this.names.set(key, name);
    this.schemas.set(name, schema);
    return name;
  }
}

interface BodySlot {
  media: Schema;
  schema: Schema;
  method: string;
  path: string;
  /** "request" or the response status. */
  role: string;
}

/** Every schema slot of the document's operations: request bodies and responses by status. */
function bodySlots(doc: Schema): BodySlot[] {
  const out: BodySlot[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op)) continue;
      const add = (content: unknown, role: string) => {
        if (!isObject(content)) return;
        for (const media of Object.values(content))
          if (isObject(media) && isObject(media.schema))
            out.push({ media, schema: media.schema, method, path, role });
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
  // The table's names first, so an equal shape used by several operations carries the table's name.
  const explicit = (slot: BodySlot) => {
    const names = bodyNames(slot.method, slot.path);
    return slot.role === "request" ? names?.request : slot.role.startsWith("2") ? names?.response : undefined;
  };
  const ordered = [...slots].sort((a, b) => Number(!explicit(a)) - Number(!explicit(b)));
  for (const slot of ordered) {
    if (!nameable(slot.schema) && !(Number(slot.role) >= 400)) continue;
    namer.claim(slot.schema, bodyCandidates(slot, bodyNames(slot.method, slot.path)));
  }
  for (const [name, schema] of Object.entries(extra)) namer.claim(schema, [name]);

  // Nested shapes, in document order (a parent before its children): named when they repeat or are known.
  const occurrences: Occurrence[] = [];
  const counts = new Map<string, Occurrence[]>();
  const visit = (schema: Schema, hint: string, key: string, parent: Occurrence | null, top: string) => {
    let here = parent;
    if (nameable(schema)) {
      const occurrence: Occurrence = { schema, hint, key, parent, top };
      const shapeKey = namer.key(schema);
      counts.set(shapeKey, [...(counts.get(shapeKey) ?? []), occurrence]);
      occurrences.push(occurrence);
      if (namer.names.has(shapeKey)) return;
      here = occurrence;
    }
    for (const child of children(schema, hint)) visit(child.schema, child.hint, child.key ?? key, here, top);
  };
  for (const [name, schema] of namer.schemas) {
    // A list's `data` items are named after the list (CustomerListResponse → Customer).
    const own = `${name.replace(/(List)?Response$/, "")}s`;
    for (const child of children(schema, own))
      visit(child.schema, child.key === "data" ? itemHint(own) : child.hint, child.key ?? own, null, name);
  }
  for (const occurrence of occurrences) {
    const shapeKey = namer.key(occurrence.schema);
    const all = counts.get(shapeKey) ?? [];
    const known = knownShapeName(occurrence.schema);
    if (occurrence.name || !(namer.names.has(shapeKey) || all.length > 1 || known)) continue;
    const name = namer.claim(
      occurrence.schema,
      nestedCandidates(occurrence, all, known, (name: string) => namer.free(occurrence.schema, name)),
    );
    // Every occurrence carries the name, so the shapes below each one are named in its context.
    const context =
      name === known || name.startsWith(pascal(occurrence.hint))
        ? undefined
        : contextOf(occurrence.parent, occurrence.top);
    for (const each of all) {
      each.name = name;
      if (context) each.context = context;
    }
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
  for (const slot of slots) slot.media.schema = rewrite(slot.schema, null);
  doc.components = { ...components, schemas: named };
}
