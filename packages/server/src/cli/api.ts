import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PaysvcError } from "@paysvc/sdk";
import { API_VERSION } from "../core/http/version.js";
import { findServer } from "./server-file.js";

/** Where the server is looked for when no URL is given and no running server wrote its address. */
export const DEFAULT_URL = `http://127.0.0.1:8080/${API_VERSION}`;

/** Where a command that talks to the server writes: its answer to stdout, everything else to stderr. */
export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface ApiCredentials {
  clientId: string;
  clientSecret: string;
}

/** The server a command asks, and how it was found (for the message when it cannot be reached). */
export interface FoundApi {
  url: string;
  from: string;
}

/**
 * The API token: PAYSVC_CLIENT_ID + PAYSVC_CLIENT_SECRET when given (`credentials`), else
 * `<data dir>/credentials.json` (written by a sandbox start); a string says why there is none.
 */
export async function credentialsFor(
  dataDir: string,
  credentials?: ApiCredentials,
): Promise<ApiCredentials | string> {
  if (credentials) return credentials;
  const file = join(dataDir, "credentials.json");
  try {
    const saved = JSON.parse(await readFile(file, "utf8")) as { clientId?: unknown; clientSecret?: unknown };
    if (typeof saved.clientId === "string" && typeof saved.clientSecret === "string") {
      return { clientId: saved.clientId, clientSecret: saved.clientSecret };
    }
    return `${file} has no clientId and clientSecret`;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : "cannot be read";
    return `${file} ${why}; set PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET, or pass --data-dir`;
  }
}

/**
 * The server to ask: `url` (--url or PAYSVC_URL) when given, else the running server of `dataDir`
 * (server.json), else DEFAULT_URL. A server.json whose process is gone is ignored, and `name` says so.
 */
export async function serverFor(
  name: string,
  url: string | undefined,
  dataDir: string,
  io: CommandIo,
): Promise<FoundApi> {
  if (url) return { url, from: "" };
  const found = await findServer(dataDir);
  if (found.kind === "running") return { url: found.url, from: ` (from ${found.file})` };
  if (found.kind === "stale") {
    io.stderr.write(
      `paysvc ${name}: ignoring ${found.file}: the server that wrote it (pid ${found.pid}) is not running; trying ${DEFAULT_URL}\n`,
    );
    return { url: DEFAULT_URL, from: ` (the default: ${found.file} is stale)` };
  }
  return { url: DEFAULT_URL, from: ` (the default: no server has written ${found.file})` };
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ETIMEDOUT: "timed out",
};

/** The first Node error code along an error's causes (fetch wraps the socket's error). */
export function causeCode(error: unknown): string | undefined {
  for (
    let cause = (error as { cause?: unknown }).cause;
    cause;
    cause = (cause as { cause?: unknown }).cause
  ) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** Why a request got no answer, for a person: "connection refused", "no answer"… */
export function networkReason(error: unknown): string {
  const code = causeCode(error);
  return (code && NETWORK_REASONS[code]) ?? code ?? "no answer";
}

/** One line for an API failure: the server not reachable, or the error's code, reason and request id. */
export function describeApiFailure(error: unknown, server: FoundApi): string {
  if (error instanceof PaysvcError) {
    if (error.code === "CONNECTION_ERROR" || error.code === "TIMEOUT") {
      const why = error.code === "TIMEOUT" ? "no answer" : networkReason(error);
      return `cannot reach the paysvc server at ${server.url}${server.from}: ${why}; start it (npm start) or pass --url`;
    }
    const request = error.requestId ? ` (request id ${error.requestId})` : "";
    return `${error.code}: ${error.reason}${request}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where a command that talks to the server finds it and its token, from its options and the
 * environment: --url or PAYSVC_URL, --data-dir or PAYSVC_DATA_DIR, PAYSVC_CLIENT_ID and _SECRET (both
 * or neither).
 */
export function apiTarget(
  options: Readonly<Record<string, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv,
): { url: string | undefined; dataDir: string; credentials: ApiCredentials | undefined } {
  const { PAYSVC_CLIENT_ID: clientId, PAYSVC_CLIENT_SECRET: clientSecret } = env;
  if ((clientId === undefined) !== (clientSecret === undefined))
    throw new Error("invalid configuration: set both PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET, or neither");
  const url = typeof options.url === "string" ? options.url : env.PAYSVC_URL;
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
    throw new Error(`invalid configuration: the API URL must be http(s)://host…, not ${url}`);
  return {
    url,
    dataDir: (typeof options.dataDir === "string" ? options.dataDir : env.PAYSVC_DATA_DIR) ?? ".paysvc",
    credentials: clientId && clientSecret ? { clientId, clientSecret } : undefined,
  };
}
