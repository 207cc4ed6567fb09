import { uuidv7 } from "../ids.js";

/** The `X-Request-Id` of one answer (conventions §1.1): `req_` + 32 hex digits of a UUIDv7. */
export function newRequestId(): string {
  return `req_${uuidv7().replace(/-/g, "")}`;
}
