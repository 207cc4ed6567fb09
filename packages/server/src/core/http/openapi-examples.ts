/**
 * Request body examples from the operation table, placed on the JSON media type, where Swagger UI's
 * "Try it out" takes them instead of a body generated from the schema (which ignores patterns and
 * formats, so the server rejects it). A test validates every example against its schema.
 */
export function addRequestExamples(
  doc: Record<string, unknown>,
  exampleOf: (method: string, path: string) => unknown,
): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const example = exampleOf(method, path);
      if (example === undefined) continue;
      const body = op.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined;
      const media = body?.content?.["application/json"];
      if (media) media.example = example;
    }
  }
}
