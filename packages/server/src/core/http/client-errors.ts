import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.js";
import { isLingering, lingerClose } from "./linger.js";
import { newRequestId } from "./request-id.js";

// Errors Node or the router raise before a request reaches our handlers still answer in the catalogue's
// body (conventions §1.7), not in Fastify's own `{error, message, statusCode}`.

function reasonFor(code: string | undefined): string {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return "The request line and headers exceed 16 KB.";
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return "The request was not received in time.";
    case "HPE_INVALID_TRANSFER_ENCODING":
      return "The request's Transfer-Encoding is invalid or sent with Content-Length.";
    default:
      return "The request could not be parsed as HTTP.";
  }
}

/**
 * Node's `clientError`: headers or URL beyond the 16 KB limit, bytes that are not HTTP, Content-Length
 * with Transfer-Encoding. Answered as `400 INVALID_REQUEST_FORMAT` (the catalogue has no 431) with an
 * `X-Request-Id` like every answer (conventions §1.1), then the connection is closed, lingering so the
 * client can read the answer while it is still sending.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // The parser reports again for the input that follows its first error: that one was answered.
  if (isLingering(socket)) return;
  if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  // An answer already begun (the request's body broke the parser after it was answered) cannot be
  // followed by another one, as Node's own handler does not.
  if ((socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    lingerClose(socket);
    return;
  }
  const body = JSON.stringify(
    new ApiError("INVALID_REQUEST_FORMAT", { reason: reasonFor(error.code) }).toBody(),
  );
  socket.write(
    "HTTP/1.1 400 Bad Request\r\n" +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${newRequestId()}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  lingerClose(socket);
}

/**
 * Router errors (a path that is not valid percent-encoding): `400 INVALID_REQUEST_FORMAT`. They are
 * answered before any hook runs, so the `X-Request-Id` the onSend hook adds is set here.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const reason =
    error.code === "FST_ERR_BAD_URL"
      ? "The request path is not valid percent-encoding."
      : "The request path is invalid.";
  void reply
    .code(400)
    .header("x-request-id", request.id)
    .send(new ApiError("INVALID_REQUEST_FORMAT", { reason }).toBody());
}
