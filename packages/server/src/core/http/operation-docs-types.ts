/**
 * What the OpenAPI document says about one operation beyond its validating schemas: the name a code
 * generator gives its method, a one-line summary, and a description when the route carries none. The
 * operationId and the body names are the hosted document's where it has the operation, so clients
 * generated from either document name things alike.
 */
export interface OperationDoc {
  /** The hosted document's operationId, else one in the same style (verbNoun, camelCase). */
  id: string;
  summary: string;
  /** Used when the route's schema has no description of its own; appended to it otherwise when `note`. */
  description?: string;
  /** Appended to the description: sandbox magic values and similar operation-wide facts. */
  note?: string;
  /** Component name of the JSON request body (hosted name where it matches). */
  request?: string;
  /** Component name of the success response body (hosted name where it matches). */
  response?: string;
  /** A valid JSON request body, shown by "Try it out" (validated against the schema by a test). */
  example?: unknown;
}

export type OperationDocs = Record<string, OperationDoc>;
