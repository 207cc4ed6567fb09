import { PaysvcError } from "@paysvc/sdk";
// Type only: the wire shape of GET /sandbox/request-log; the CLI loads none of the server's modules.
import type { RequestLogEntry } from "../sandbox/request-log.js";
import { type ApiCredentials, type CommandIo, credentialsFor, describeApiFailure, serverFor } from "./api.js";
import { basicAuth, refusalOf } from "./sandbox-fixtures.js";

/** What `paysvc logs tail` needs: its filters, and where the server and the API token are. */
export interface LogsTailCommand {
  status?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  json: boolean;
  url?: string | undefined;
  dataDir: string;
  credentials?: ApiCredentials | undefined;
  /** Resolves when the command should stop (SIGINT/SIGTERM in the bin). */
  stopped: Promise<unknown>;
  /** Between two reads of the log (1 s). */
  intervalMs?: number;
}

type Entry = RequestLogEntry;

/** The filters as one test: `--status 404,4xx`, `--method get,POST`, `--path /customers`. */
export function entryFilter(
  options: Pick<LogsTailCommand, "status" | "method" | "path">,
): (e: Entry) => boolean {
  const list = (text: string | undefined) =>
    text
      ?.split(",")
      .map((part) => part.trim().toUpperCase())
      .filter(Boolean);
  const statuses = list(options.status);
  const bad = statuses?.find((s) => !/^[1-5](\d\d|XX)$/.test(s));
  if (bad) throw new Error(`--status takes codes or classes such as 404 or 4xx, not ${bad.toLowerCase()}`);
  const methods = list(options.method);
  return (entry) =>
    (!statuses ||
      statuses.some((s) =>
        s.endsWith("XX") ? String(entry.status)[0] === s[0] : String(entry.status) === s,
      )) &&
    (!methods || methods.includes(entry.method)) &&
    (!options.path || entry.path.startsWith(options.path));
}

/** One request, one line: time, method, path, status, latency, request id. */
export const formatEntry = (e: Entry) =>
  `${e.at}  ${e.method.padEnd(6)} ${e.path}  ${e.status}  ${e.latencyMs} ms  ${e.requestId}\n`;

/**
 * `paysvc logs tail`: follows the token's platform's API requests as the running server answers them
 * (its sandbox request log, read once a second from the newest entry on), printing those that pass the
 * filters. Exit 0 stopped; 1 it could not read the log.
 */
export async function runLogsTailCommand(command: LogsTailCommand, io: CommandIo): Promise<number> {
  let keep: (e: Entry) => boolean;
  try {
    keep = entryFilter(command);
  } catch (error) {
    io.stderr.write(`paysvc logs tail: ${(error as Error).message}\n`);
    return 1;
  }
  const credentials = await credentialsFor(command.dataDir, command.credentials);
  if (typeof credentials === "string") {
    io.stderr.write(`paysvc logs tail: no API credentials: ${credentials}\n`);
    return 1;
  }
  const server = await serverFor("logs tail", command.url, command.dataDir, io);
  const read = async (after: number): Promise<{ data: Entry[]; next: number }> => {
    const response = await fetch(`${server.url}/sandbox/request-log?after=${after}&limit=1000`, {
      headers: { authorization: basicAuth(credentials) },
    }).catch((error: unknown) => {
      throw new PaysvcError({ code: "CONNECTION_ERROR", reason: "no answer", cause: error });
    });
    if (response.ok) return (await response.json()) as { data: Entry[]; next: number };
    if (response.status === 404 && !response.headers.get("content-type")?.includes("json"))
      throw new Error(`${server.url} has no request log: is it a paysvc sandbox?`);
    throw await refusalOf(response);
  };
  let stopped = false;
  void command.stopped.then(() => (stopped = true));
  try {
    let cursor = (await read(-1)).next;
    io.stderr.write(
      `paysvc logs tail: following the API requests of this platform at ${server.url} (Ctrl-C stops)\n`,
    );
    while (!stopped) {
      const page = await read(cursor);
      for (const entry of page.data.filter(keep))
        io.stdout.write(command.json ? `${JSON.stringify(entry)}\n` : formatEntry(entry));
      cursor = page.next;
      if (page.data.length === 0)
        await Promise.race([command.stopped, new Promise((r) => setTimeout(r, command.intervalMs ?? 1000))]);
    }
    return 0;
  } catch (error) {
    io.stderr.write(`paysvc logs tail: ${describeApiFailure(error, server)}\n`);
    return 1;
  }
}
