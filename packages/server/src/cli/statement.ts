import { PaysvcClient, PaysvcError, renderStatement, StatementIntegrityError } from "@paysvc/sdk";
import { type Static, Type } from "typebox";
import { type CommandIo, credentialsFor, describeApiFailure, type FoundApi, serverFor } from "./api.js";

/** `paysvc statement`: build, print and optionally confirm one monthly statement through the SDK. */
export const StatementSettings = Type.Object({
  account: Type.String({ minLength: 1 }),
  month: Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$" }),
  format: Type.Enum(["text", "html", "json"]),
  /** From --url or PAYSVC_URL; otherwise the running server's (cli/server-file.ts), else DEFAULT_URL. */
  url: Type.Optional(Type.String({ pattern: "^https?://" })),
  confirm: Type.Boolean(),
  feesAsSeparateLines: Type.Boolean(),
  contact: Type.Optional(Type.String({ minLength: 1 })),
  /** From PAYSVC_CLIENT_ID / PAYSVC_CLIENT_SECRET; otherwise `<data dir>/credentials.json` is read. */
  credentials: Type.Optional(
    Type.Object({ clientId: Type.String({ minLength: 1 }), clientSecret: Type.String({ minLength: 1 }) }),
  ),
});
export type StatementSettings = Static<typeof StatementSettings>;

/** Where the command writes: the rendered statement to `stdout`, everything else to `stderr`. */
export type StatementIo = CommandIo;

export interface StatementCommand extends StatementSettings {
  /**
   * Holds `credentials.json` (written by `paysvc start` in sandbox mode) when no env credentials are set,
   * and `server.json` (the running server's address) when no URL is.
   */
  dataDir: string;
  /** How long to wait for a month whose card settlement is about to close (the SDK's default, 120 s). */
  maxWaitMs?: number;
}

const DEFAULT_MAX_WAIT_MS = 120_000;

/** Exit codes: 0 printed (and confirmed); 2 the statement failed its integrity checks; 1 anything else. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_INTEGRITY = 2;

// Matched by code as well as class: a second copy of the SDK in the process has its own class.
const isIntegrityError = (error: unknown): error is PaysvcError =>
  error instanceof StatementIntegrityError ||
  (error instanceof Error && (error as { code?: unknown }).code === "STATEMENT_INTEGRITY_FAILED");

/** "3 d 4 h", "5 min 2 s", "12 s": how long a Retry-After is, for a person. */
function duration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, "d"],
    [3_600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const parts: string[] = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, unit] of units) {
    if (left >= size || (unit === "s" && parts.length === 0)) {
      parts.push(`${Math.floor(left / size)} ${unit}`);
      left %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

function describeFailure(error: unknown, command: StatementCommand, server: FoundApi): string {
  if (error instanceof PaysvcError) {
    const request = error.requestId ? ` (request id ${error.requestId})` : "";
    if (error.code === "NOT_YET_AVAILABLE") {
      const wait = error.retryAfterSeconds ?? 0;
      return (
        `the statement for ${command.month} is not available yet: card settlement for that month closes in ` +
        `${duration(wait)}; run this again then (in the sandbox, POST /sandbox/clock/advance moves the clock)${request}`
      );
    }
    // The window's end is after the platform's time (statements/balance-changes.ts): the month is still on.
    const notEnded = error.code === "INVALID_INPUT" && error.fieldErrors.find((e) => e.field === "to");
    if (notEnded)
      return `${command.month} has not ended yet on the platform's clock (${notEnded.message}); a statement can be built once the month has ended and its card settlement closed${request}`;
  }
  return describeApiFailure(error, server);
}

/**
 * A fetch that reports progress on stderr as the SDK reads a statement: each wait for a month whose card
 * settlement is about to close (`409 NOT_YET_AVAILABLE`), and, for a statement of more than one page,
 * each page and the transactions read for it.
 */
function reportingFetch(command: StatementCommand, io: StatementIo): typeof fetch {
  const startedAt = Date.now();
  const maxWaitMs = command.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const progress = (line: string) => io.stderr.write(`paysvc statement: ${line}\n`);
  let pages = 0;
  let changes = 0;
  const transactions = new Set<string>();
  let read = 0;
  return async (input, init) => {
    const response = await fetch(input, init);
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    if (path.endsWith("/balance-changes") && response.status === 409) {
      const seconds = Number(response.headers.get("retry-after") ?? "0");
      // The SDK waits only when the wait ends before its deadline; otherwise the error explains.
      if (Date.now() + seconds * 1000 <= startedAt + maxWaitMs)
        progress(
          `${command.month} is not closed yet: card settlement closes in ${duration(seconds)}; waiting`,
        );
    } else if (path.endsWith("/balance-changes") && response.ok) {
      const page = (await response.clone().json()) as {
        data: { transactionId?: string }[];
        hasMore: boolean;
        totalCount?: number;
      };
      pages += 1;
      changes += page.data.length;
      for (const change of page.data) if (change.transactionId) transactions.add(change.transactionId);
      if (pages > 1 || page.hasMore)
        progress(`read page ${pages}: ${changes} of ${page.totalCount ?? "?"} balance changes`);
      if (pages > 1 && !page.hasMore) progress(`reading ${transactions.size} transactions`);
    } else if (pages > 1 && /\/transactions\/[^/]+$/.test(path) && response.ok) {
      read += 1;
      if (read % 100 === 0 || read === transactions.size)
        progress(`read ${read} of ${transactions.size} transactions`);
    }
    return response;
  };
}

/**
 * `paysvc statement`: builds one account's statement for one Chicago month with the SDK (which checks
 * `openingBalance + Σ amount == closingBalance`), prints it, and with `--confirm` sends the receipt
 * afterwards. A failed integrity check prints nothing to stdout, sends no receipt and exits 2
 * (interface "Periodic statement rules" 5: do not send it). The server is the one at `url`, else the one
 * running on the data directory (server.json), else DEFAULT_URL.
 */
export async function runStatementCommand(command: StatementCommand, io: StatementIo): Promise<number> {
  const credentials = await credentialsFor(command.dataDir, command.credentials);
  if (typeof credentials === "string") {
    io.stderr.write(`paysvc statement: no API credentials: ${credentials}\n`);
    return EXIT_FAILED;
  }
  const server = await serverFor("statement", command.url, command.dataDir, io);
  try {
    const client = new PaysvcClient({
      baseUrl: server.url,
      ...credentials,
      fetch: reportingFetch(command, io),
    });
    const statement = await client.statements.build({
      accountId: command.account,
      month: command.month,
      feesAsSeparateLines: command.feesAsSeparateLines,
      ...(command.maxWaitMs !== undefined ? { maxWaitMs: command.maxWaitMs } : {}),
      ...(command.contact ? { questionsContact: command.contact } : {}),
    });
    io.stdout.write(renderStatement(statement, command.format));
    if (command.confirm) {
      const record = await client.statements.confirm(command.account, {
        periodStart: statement.period.start,
      });
      const what = record.lastResponse.status === 201 ? "recorded" : "was already recorded";
      io.stderr.write(
        `paysvc statement: receipt for ${command.account} ${statement.period.start} ${what} (confirmedAt ${record.confirmedAt})\n`,
      );
    }
    return EXIT_OK;
  } catch (error) {
    if (isIntegrityError(error)) {
      io.stderr.write(
        `paysvc statement: STATEMENT NOT ISSUED: it failed its integrity check and must not be sent; ` +
          `contact paysvc support with these details.\n${describeFailure(error, command, server)}\n` +
          `${JSON.stringify(error.details ?? {}, null, 2)}\n`,
      );
      return EXIT_INTEGRITY;
    }
    io.stderr.write(`paysvc statement: ${describeFailure(error, command, server)}\n`);
    return EXIT_FAILED;
  }
}
