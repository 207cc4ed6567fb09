import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.js";

// Errors Node or the router raise before a request reaches our handlers still answer in the catalogue's
// body (conventions §1.7), not in Fastify's own `{error, message, statusCode}`.

/**
 * Node's `clientError`: headers or URL beyond the 16 KB limit, or an unparsable request. Answered as
 * `400 INVALID_REQUEST_FORMAT` (the catalogue has no 431), then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const reason =
    error.code === "HPE_HEADER_OVERFLOW"
      ? "The request line and headers exceed 16 KB."
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "The request was not received in time."
        : "The request could not be parsed as HTTP.";
  const body = JSON.stringify(new ApiError("INVALID_REQUEST_FORMAT", { reason }).toBody());
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Router errors (a path that is not valid percent-encoding): `400 INVALID_REQUEST_FORMAT`. */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const reason =
    error.code === "FST_ERR_BAD_URL"
      ? "The request path is not valid percent-encoding."
      : "The request path is invalid.";
  void reply.code(400).send(new ApiError("INVALID_REQUEST_FORMAT", { reason }).toBody());
}
