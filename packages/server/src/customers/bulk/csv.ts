import { isUtf8 } from "node:buffer";
import { CsvError, parse } from "csv-parse/sync";
import { type FieldError, invalidInput } from "../../core/errors/api-error.js";

/** Upload limits of `POST /customers/bulk/csv` (docs/decisions.md, bulk customer import). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_ROWS = 10_000;

/** The JSON schema subset this file walks (TypeBox schemas are plain JSON schema). */
interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  maxItems?: number;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

type Segment = string | number;

/** A column header as a path of field names and array indexes: `address.line1`, `agreementConsents[0].type`. */
function segmentsOf(header: string): Segment[] | null {
  if (!/^[A-Za-z][A-Za-z0-9]*(\[\d{1,3}\])?(\.[A-Za-z][A-Za-z0-9]*(\[\d{1,3}\])?)*$/.test(header))
    return null;
  const segments: Segment[] = [];
  for (const part of header.split(".")) {
    const match = /^([A-Za-z0-9]+)(?:\[(\d+)\])?$/.exec(part);
    if (!match?.[1]) return null;
    segments.push(match[1]);
    if (match[2] !== undefined) segments.push(Number(match[2]));
  }
  return segments;
}

/** The property's schema in an object schema, looking into every variant of a union. */
function propertyOf(node: SchemaNode, name: string): SchemaNode | undefined {
  const own = node.properties?.[name];
  if (own) return own;
  for (const variant of [...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])]) {
    const found = propertyOf(variant, name);
    if (found) return found;
  }
  return undefined;
}

const scalarTypes = new Set(["string", "integer", "number", "boolean"]);
const typeOf = (node: SchemaNode) => (Array.isArray(node.type) ? node.type[0] : node.type);

/** What a column holds: one scalar value, or a comma-separated list of scalars (`currencies`). */
export interface Column {
  header: string;
  path: Segment[];
  kind: "scalar" | "list";
  scalar: string;
}

/**
 * Resolves a header against the create-customer schema: every cell fills one scalar field of the
 * `POST /customers` body, or a list of scalars. `null` when the header names no such field.
 */
export function resolveColumn(schema: object, header: string): Column | null {
  const path = segmentsOf(header);
  if (!path) return null;
  let node: SchemaNode | undefined = schema as SchemaNode;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (!node) return null;
    if (typeof segment === "number") {
      if (typeOf(node) !== "array" || !node.items) return null;
      if (node.maxItems !== undefined && segment >= node.maxItems) return null;
      node = node.items;
    } else {
      if (typeOf(node) === "array") return null;
      node = propertyOf(node, segment as string);
    }
  }
  if (!node) return null;
  const type = typeOf(node);
  if (type && scalarTypes.has(type)) return { header, path, kind: "scalar", scalar: type };
  const item = node.items ? typeOf(node.items) : undefined;
  if (type === "array" && item && scalarTypes.has(item)) return { header, path, kind: "list", scalar: item };
  return null;
}

/** A cell as its field's JSON type; a cell that does not read as that type stays text, for validation to name. */
function convert(cell: string, scalar: string): unknown {
  if ((scalar === "integer" || scalar === "number") && /^-?\d+(\.\d+)?$/.test(cell)) return Number(cell);
  if (scalar === "boolean" && (cell === "true" || cell === "false")) return cell === "true";
  return cell;
}

function setAt(target: Record<string, unknown>, path: Segment[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] as Segment;
    const next = path[i + 1];
    if (node[segment] === undefined) node[segment] = typeof next === "number" ? [] : {};
    node = node[segment] as Record<string | number, unknown>;
  }
  node[path[path.length - 1] as Segment] = value;
}

/** The `POST /customers` body of one data row: empty cells are absent fields. */
export function rowBody(columns: Column[], cells: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = cells[i] ?? "";
    if (cell === "") return;
    const value =
      column.kind === "list"
        ? cell
            .split(",")
            .map((item) => item.trim())
            .filter((item) => item !== "")
            .map((item) => convert(item, column.scalar))
        : convert(cell, column.scalar);
    setAt(body, column.path, value);
  });
  return body;
}

export interface ParsedFile {
  columns: string[];
  rows: string[][];
}

const fileError = (message: string): FieldError => ({ field: "file", message });

/**
 * Parses an uploaded CSV (RFC 4180: quoted cells may hold commas, quotes and line breaks; a UTF-8 byte order
 * mark is ignored). The first record is the header. Whole-file problems are `400 INVALID_INPUT` on `file`;
 * a row whose cell count differs from the header's is kept, to fail on its own in the job.
 */
export function parseCustomerCsv(schema: object, content: Buffer): ParsedFile {
  if (content.length === 0) throw invalidInput([fileError("is empty; send a CSV file with a header row")]);
  if (!isUtf8(content)) throw invalidInput([fileError("is not UTF-8 text")]);
  let records: string[][];
  try {
    records = parse(content, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: 64 * 1024,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) throw invalidInput([fileError(`is not valid CSV: ${error.message}`)]);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw invalidInput([fileError("is empty; send a CSV file with a header row")]);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  header.forEach((name, i) => {
    if (seen.has(name)) errors.push(fileError(`column ${i + 1} "${name}" appears twice in the header`));
    else if (!resolveColumn(schema, name))
      errors.push(fileError(`column ${i + 1} "${name}" is not a field of POST /customers`));
    seen.add(name);
  });
  if (rows.length === 0) errors.push(fileError("has a header but no customer rows"));
  if (rows.length > MAX_ROWS)
    errors.push(fileError(`has ${rows.length} rows; at most ${MAX_ROWS} are accepted`));
  if (errors.length > 0) throw invalidInput(errors);
  return { columns: header, rows };
}
