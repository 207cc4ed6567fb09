import { STATUS_CODES } from "node:http";
import { hostedShapeNames, localShapeNames } from "./openapi-hosted-names.js";

/**
 * How the OpenAPI document's components are named (openapi-components.ts): hints taken from where a shape
 * occurs (property key, array, union branch), the names of known shapes, and the context prefixes that
 * tell two different shapes wanting one name apart (`PolicyAccountRule` next to `AccountRule`).
 */

export type Schema = Record<string, unknown>;

/** What the naming needs to know about one operation's bodies. */
export interface BodyNames {
  /** operationId, the fallback prefix of the names. */
  id: string;
  request?: string | undefined;
  response?: string | undefined;
}

export function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

/** The branches of a union other than `{type: null}` (a nullable X is X, not a union worth a name). */
export function realBranches(schema: Schema): Schema[] {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches)) return [];
  return branches.filter((branch): branch is Schema => isObject(branch) && branch.type !== "null");
}

export function isUnion(schema: Schema): boolean {
  return realBranches(schema).length > 1;
}

/** An object with properties, or a union of several branches one of which is such: worth a name. */
export function nameable(schema: Schema): boolean {
  if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  const branches = realBranches(schema);
  return branches.length > 1 && branches.some(nameable);
}

/** An array's items are named after the array: `agreementConsents` → AgreementConsent. */
export function itemHint(arrayHint: string): string {
  const name = pascal(arrayHint);
  if (name.endsWith("ies")) return `${name.slice(0, -3)}y`;
  if (name.endsWith("s") && !name.endsWith("ss")) return name.slice(0, -1);
  return `${name}Item`;
}

/**
 * A union branch is named after the constant that selects it (`INDIVIDUAL`), else after the word its
 * selecting enum's values share (`ETHEREUM_WALLET`, `BASE_WALLET` → Wallet); the one real branch of a
 * nullable union is named as the union is. Else its position, which the namer never lets stand alone.
 */
export function branchHint(branch: Schema, index: number, unionHint: string, sole: boolean): string {
  if (sole) return unionHint;
  if (isObject(branch.properties)) {
    for (const value of Object.values(branch.properties)) {
      if (!isObject(value)) continue;
      if (typeof value.const === "string") return value.const;
      if (!Array.isArray(value.enum) || !value.enum.every((v) => typeof v === "string")) continue;
      const values = value.enum as string[];
      if (values.length === 1) return values[0] as string;
      const words = values.map((v) => (v.includes("_") ? v.slice(v.lastIndexOf("_") + 1) : ""));
      if (words[0] && words.every((word) => word === words[0])) return words[0];
    }
  }
  return `option${index + 1}`;
}

export const isPositionalHint = (hint: string) => /^option\d+$/.test(hint);

/** The name of a known shape (hosted document's, else ours) by its property names. */
export function knownShapeName(schema: Schema): string | undefined {
  // One property says too little about what the object is (`{code}` is a currency and an OTP answer).
  if (!isObject(schema.properties) || Object.keys(schema.properties).length < 2) return undefined;
  const key = Object.keys(schema.properties).sort().join(",");
  return localShapeNames[key] ?? hostedShapeNames[key];
}

/** Bodies that say where a request stands rather than what it made: named alike in every operation. */
export const STATUS_SHAPES = new Set([
  "AuthSignedRequestChallenge",
  "SignedRequestChallenge",
  "WalletOperationProcessing",
]);

/** `Created` for 201, `Accepted` for 202: a response name's status part, in words. */
export function statusWords(status: number): string {
  return pascal(STATUS_CODES[status] ?? `Status ${status}`);
}

/** What a component's name says about where its parts occur: `GtqExternalAccountCreateInfo` → Gtq. */
export function contextStem(name: string): string {
  const stem = name.replace(
    /(ExternalAccountCreateInfo|CreateRequest|UpdateRequest|ListResponse|Request|Response|OneOf|Account|Info)$/,
    "",
  );
  return stem || name;
}

/** The names a body may take, best first: a status shape's own name, the table's, a known one, the operation's. */
export function bodyCandidates(
  slot: { schema: Schema; method: string; path: string; role: string },
  names: BodyNames | undefined,
): string[] {
  const status = Number(slot.role);
  if (status >= 400) return [`Error${status}`];
  const known = knownShapeName(slot.schema);
  const base = pascal(names?.id ?? `${slot.method} ${slot.path}`);
  if (slot.role === "request") return [names?.request, known, `${base}Request`].filter(Boolean) as string[];
  if (known && STATUS_SHAPES.has(known)) return [known];
  return [names?.response, known, `${base}Response`, `${base}${statusWords(status)}Response`].filter(
    Boolean,
  ) as string[];
}

/** One occurrence of a nested shape, with the nearest occurrence above it that may carry a name. */
export interface Occurrence {
  schema: Schema;
  hint: string;
  /** The property key that holds it, or the one above for an item or branch. */
  key: string;
  parent: Occurrence | null;
  /** The top-level body's component name. */
  top: string;
  /** Its component name once claimed, and the context its name was given (`Gtq`), if any. */
  name?: string;
  context?: string;
}

/** The context an occurrence's children are named in: the nearest named occurrence's, else the body's. */
export function contextOf(occurrence: Occurrence | null, top: string): string {
  for (let at = occurrence; at; at = at.parent) if (at.name) return at.context ?? contextStem(at.name);
  return contextStem(top);
}

/** The value every occurrence agrees on, else undefined. */
function shared(values: string[]): string | undefined {
  return values.every((value) => value === values[0]) ? values[0] : undefined;
}

/**
 * The names a nested shape may take, best first: its known name, its own hint (`address` → Address), then
 * the hint in the context all its occurrences share (`Gtq` + Individual, `Policy` + AccountRule), a union as
 * `…OneOf`, then after the property that holds it everywhere (`beneficiary` → BeneficiaryAddress).
 */
export function nestedCandidates(
  occurrence: Occurrence,
  all: Occurrence[],
  known: string | undefined,
  free: (name: string) => boolean,
): string[] {
  const own = pascal(occurrence.hint);
  const context = shared(all.map((o) => contextOf(o.parent, o.top)));
  const holder = shared(all.map(holderKey));
  const union = isUnion(occurrence.schema);
  const candidates: Array<string | undefined> = [known && free(known) ? known : undefined];
  if (isPositionalHint(occurrence.hint))
    candidates.push(context && `${context}Variant`, `${pascal(occurrence.top)}Variant`);
  else {
    candidates.push(own);
    if (union) candidates.push(context && `${context}${own}OneOf`, `${own}OneOf`);
    else candidates.push(context && `${context}${own}`);
    candidates.push(holder && `${pascal(holder)}${own}`);
  }
  return candidates.filter((c): c is string => Boolean(c));
}

/** The property key above the one holding an occurrence (`beneficiary` for a beneficiary's `address`). */
function holderKey(occurrence: Occurrence): string {
  for (let at = occurrence.parent; at; at = at.parent) if (at.key !== occurrence.key) return at.key;
  return "";
}
