import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PaysvcClient, PaysvcError, renderStatement, StatementIntegrityError } from "@paysvc/sdk";
import { type Static, Type } from "typebox";

/** `paysvc statement`: build, print and optionally confirm one monthly statement through the SDK. */
export const StatementSettings = Type.Object({
  account: Type.String({ minLength: 1 }),
  month: Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$" }),
  format: Type.Enum(["text", "html", "json"]),
  url: Type.String({ pattern: "^https?://" }),
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
export interface StatementIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface StatementCommand extends StatementSettings {
  /** Holds `credentials.json` (written by `paysvc start` in sandbox mode) when no env credentials are set. */
  dataDir: string;
}

/** Exit codes: 0 printed (and confirmed); 2 the statement failed its integrity checks; 1 anything else. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_INTEGRITY = 2;

async function credentialsFor(
  command: StatementCommand,
): Promise<{ clientId: string; clientSecret: string } | string> {
  if (command.credentials) return command.credentials;
  const file = join(command.dataDir, "credentials.json");
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

// Matched by code as well as class: a second copy of the SDK in the process has its own class.
const isIntegrityError = (error: unknown): error is PaysvcError =>
  error instanceof StatementIntegrityError ||
  (error instanceof Error && (error as { code?: unknown }).code === "STATEMENT_INTEGRITY_FAILED");

function describeFailure(error: unknown): string {
  if (error instanceof PaysvcError) {
    const request = error.requestId ? ` (request id ${error.requestId})` : "";
    return `${error.code}: ${error.reason}${request}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * `paysvc statement`: builds one account's statement for one Chicago month with the SDK (which checks
 * `openingBalance + Σ amount == closingBalance`), prints it, and with `--confirm` sends the receipt
 * afterwards. A failed integrity check prints nothing to stdout, sends no receipt and exits 2
 * (interface "Periodic statement rules" 5: do not send it; contact support).
 */
export async function runStatementCommand(command: StatementCommand, io: StatementIo): Promise<number> {
  const credentials = await credentialsFor(command);
  if (typeof credentials === "string") {
    io.stderr.write(`paysvc statement: no API credentials: ${credentials}\n`);
    return EXIT_FAILED;
  }
  try {
    const client = new PaysvcClient({ baseUrl: command.url, ...credentials });
    const statement = await client.statements.build({
      accountId: command.account,
      month: command.month,
      feesAsSeparateLines: command.feesAsSeparateLines,
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
          `contact paysvc support with these details.\n${describeFailure(error)}\n` +
          `${JSON.stringify(error.details ?? {}, null, 2)}\n`,
      );
      return EXIT_INTEGRITY;
    }
    io.stderr.write(`paysvc statement: ${describeFailure(error)}\n`);
    return EXIT_FAILED;
  }
}
