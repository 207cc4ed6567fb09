/** A request as HTTP/1.1 bytes, for the raw socket: the parts to write, in order. */
export interface RawRequest {
  method: string;
  /** Absolute path with query, e.g. /2025-10-13/customers. */
  target: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  chunked?: boolean;
}

/**
 * The request line, headers (Host, then the request's, then the body's framing) and body. A chunked body
 * goes as one chunk: the framing, not the chunk size, is what the server must get right.
 */
export function httpBytes(request: RawRequest): Array<string | Uint8Array> {
  const body = typeof request.body === "string" ? Buffer.from(request.body) : request.body;
  const lines = [`${request.method} ${request.target} HTTP/1.1`, "Host: paysvc"];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (body && request.chunked) lines.push("Transfer-Encoding: chunked");
  else if (body) lines.push(`Content-Length: ${body.length}`);
  const head = `${lines.join("\r\n")}\r\n\r\n`;
  if (!body) return [head];
  return request.chunked ? [head, `${body.length.toString(16)}\r\n`, body, "\r\n0\r\n\r\n"] : [head, body];
}
