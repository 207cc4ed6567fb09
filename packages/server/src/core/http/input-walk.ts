import type { ErrorObject } from "ajv";

/**
 * How deep objects and arrays may nest in a body. The deepest documented body nests 5 levels; open
 * objects (`senderCustomerInfo`) get room, not a depth that overflows a recursive reader's stack.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Member names that are never fields: on a JavaScript object they reach the prototype, so wherever
 * they appear, open objects included, they are unknown fields (issue 15), never dropped or merged.
 */
const reservedKeys = new Set(["__proto__", "constructor"]);

const NUL = "\u0000";
const pointer = (parent: string, key: string | number) =>
  `${parent}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

const nulMessage = "must not contain the NUL character (U+0000)";
const depthMessage = `must not nest objects or arrays more than ${MAX_BODY_DEPTH} levels deep`;
// Ajv's own message for an unknown member, so both render the same FieldError.
const unknownMessage = "must NOT have additional properties";

function error(instancePath: string, keyword: string, message: string, params = {}): ErrorObject {
  return { instancePath, schemaPath: "#", keyword, params, message };
}

export interface Findings {
  /** As Ajv errors, so they join the schema's own errors in one `400 INVALID_INPUT`. */
  errors: ErrorObject[];
  /** Some member nests beyond MAX_BODY_DEPTH: the schema must not walk the value at all. */
  tooDeep: boolean;
}

/**
 * What the schemas cannot say about a request value, found in one iterative pass (no recursion, so no
 * depth overflows the stack): U+0000 anywhere (PostgreSQL text and jsonb cannot hold it), and in a body
 * the reserved member names and nesting deeper than MAX_BODY_DEPTH, reported on the top-level member.
 */
export function inspectInput(value: unknown, body: boolean): Findings {
  const errors: ErrorObject[] = [];
  const tooDeep = new Set<string>();
  // An entry is a value still to look at, or an error found on a member name, kept in place so that
  // errors come out in document order.
  type Entry = { value: unknown; at: string; depth: number; top: string } | { found: ErrorObject };
  const stack: Entry[] = [{ value, at: "", depth: 0, top: "" }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if ("found" in entry) {
      errors.push(entry.found);
      continue;
    }
    const { value: current, at, depth, top } = entry;
    if (typeof current === "string") {
      if (current.includes(NUL)) errors.push(error(at, "nul", nulMessage));
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (body && depth > MAX_BODY_DEPTH) {
      if (!tooDeep.has(top)) errors.push(error(top, "maxDepth", depthMessage, { limit: MAX_BODY_DEPTH }));
      tooDeep.add(top);
      continue;
    }
    const members: [string | number, unknown][] = Array.isArray(current)
      ? current.map((v, i) => [i, v])
      : Object.entries(current);
    const children: Entry[] = members.map(([key, child]) => {
      if (typeof key === "string" && key.includes(NUL))
        return { found: error(pointer(at, key), "nul", nulMessage) };
      if (body && typeof key === "string" && reservedKeys.has(key))
        return { found: error(at, "additionalProperties", unknownMessage, { additionalProperty: key }) };
      const childAt = pointer(at, key);
      return { value: child, at: childAt, depth: depth + 1, top: depth === 0 ? childAt : top };
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Entry);
  }
  return { errors, tooDeep: tooDeep.size > 0 };
}

/**
 * A path value holding U+0000 cannot name anything stored (nothing stored can hold it); as U+FFFD it
 * still names nothing, so the route answers its own 404 like any malformed id (conventions §1.3).
 */
export function neutralizeNul(params: unknown): void {
  if (params === null || typeof params !== "object") return;
  const record = params as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === "string" && value.includes(NUL)) record[key] = value.replaceAll(NUL, "\ufffd");
  }
}
