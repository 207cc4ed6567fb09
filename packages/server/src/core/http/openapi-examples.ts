/**
 * Request body examples, placed on the JSON media type, where Swagger UI's "Try it out" takes them instead
 * of a body generated from the schema (which ignores patterns and formats, so the server rejects it). An
 * operation whose body is the empty object gets `{}`. A test asserts every request body has an example
 * and validates each against its schema.
 */
export function addRequestExamples(
  doc: Record<string, unknown>,
  exampleOf: (method: string, path: string) => unknown,
): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const body = op.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined;
      const media = body?.content?.["application/json"];
      if (!media) continue;
      const example = exampleOf(method, path) ?? (isEmptyObject(media.schema) ? {} : undefined);
      if (example !== undefined) media.example = example;
    }
  }
}

/** `{type: object, properties: {}}` with nothing else to say: the only valid example is `{}`. */
function isEmptyObject(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const { properties, anyOf, oneOf, required } = schema as Record<string, unknown>;
  const noProperties =
    typeof properties === "object" && properties !== null && Object.keys(properties).length === 0;
  return noProperties && !anyOf && !oneOf && !(Array.isArray(required) && required.length > 0);
}
