import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps.js";

/**
 * The scheme, host and port links to this service are made with (reveal links): PAYSVC_PUBLIC_URL when
 * set, else the address the server listens on. Never the request's Host header, which the caller
 * chooses (a link to a host of theirs would carry a card's reveal token there).
 */
export function publicOrigin(deps: Pick<Deps, "publicUrl">, app: FastifyInstance): string {
  return (deps.publicUrl ?? app.listeningOrigin).replace(/\/+$/, "").replace("[::1]", "127.0.0.1");
}
