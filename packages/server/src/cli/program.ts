import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import {
  LISTEN_NOTES,
  LOGS_NOTES,
  OPERATOR_NOTES,
  PROGRAM_NOTES,
  RESET_NOTES,
  SEED_NOTES,
  START_ENVIRONMENT,
  STATEMENT_NOTES,
} from "./help-texts.js";
import { triggerHelp } from "./trigger.js";

/** The commands `paysvc` knows; `start` when none is named. */
export const COMMANDS = [
  "start",
  "migrate",
  "statement",
  "listen",
  "trigger",
  "seed",
  "logs",
  "sandbox",
  "create-platform",
  "card-limits",
  "daily-volume-limit",
  "rotate-webhook-key",
  "rotate-master-key",
] as const;
export type CommandName = (typeof COMMANDS)[number];
/** The commands of a group: `paysvc logs tail`, `paysvc sandbox reset`. */
export type SubcommandName = "logs tail" | "sandbox reset";

/** One parsed command line: the command, its options as commander read them, and its own arguments. */
export interface CommandLine {
  name: CommandName | SubcommandName;
  options: Readonly<Record<string, string | boolean | undefined>>;
  /** The command's operands (trigger's event type). */
  operands: readonly string[];
  /** The arguments after the command's name, for the commands that parse their own (card-limits…). */
  args: readonly string[];
}

/** Where help (stdout) and command-line errors with the usage (stderr) go. */
export interface CliOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * The command line was answered without running a command: help or the version was printed (exit 0), or
 * it could not be parsed and the error and usage were printed to stderr (exit 1, commander's convention:
 * exit 2 is `paysvc statement`'s "integrity check failed, do not send", docs/decisions.md).
 */
export class CommandLineExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = "CommandLineExit";
  }
}

const silent: CliOutput = { stdout: { write: () => true }, stderr: { write: () => true } };

const version = (): string => {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
};

/** One `--data-dir` option, saying what the command reads or writes there. */
const withDataDir = (command: Command, what: string) =>
  command.option("--data-dir <dir>", `data directory (${what}; env PAYSVC_DATA_DIR, default .paysvc)`);

/** The options of a command that talks to the running server's API: where it is, where its token is. */
const withServer = (command: Command) =>
  withDataDir(
    command.option(
      "--url <url>",
      "the API base address, e.g. http://127.0.0.1:8080/2025-10-13 (env PAYSVC_URL; default: <data dir>/server.json)",
    ),
    "server.json and credentials.json",
  );

/** The options of an operator command on one platform: `--platform`, its own, the data directory. */
const withPlatform = (command: Command, options: (command: Command) => Command = (c) => c) =>
  withDataDir(
    options(command.option("--platform <id>", "Platform:… (required)")),
    "the embedded database",
  ).addHelpText("after", OPERATOR_NOTES);

/**
 * The `paysvc` command line (commander): every command with its options, `--help` at every level and
 * `help <command>`. `onCommand` receives the command that parsed.
 */
function buildProgram(
  output: CliOutput,
  onCommand: (name: CommandLine["name"], options: CommandLine["options"], operands: string[]) => void,
) {
  const program = new Command("paysvc")
    .usage("[command] [options]")
    .description("paysvc: a self-hostable payments API with a sandbox. Without a command, it runs `start`.")
    .version(version(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .helpCommand("help [command]", "show help for a command")
    .addHelpText("after", PROGRAM_NOTES)
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({
      writeOut: (text) => void output.stdout.write(text),
      writeErr: (text) => void output.stderr.write(text),
      outputError: (text, write) => write(`paysvc: ${text.replace(/^error: /, "")}`),
    });
  const action = (command: Command, name: CommandLine["name"]) =>
    command.helpOption("-h, --help", "show this help").action((...params: unknown[]) => {
      const self = params.at(-1) as Command;
      onCommand(name, self.opts(), self.args);
    });
  const command = (name: CommandName, summary: string, description = summary) =>
    action(program.command(name).summary(summary).description(description), name);
  /** `paysvc <group> <name>`: a command of a group (`logs tail`, `sandbox reset`). */
  const subcommand = (group: Command, name: SubcommandName, summary: string, description = summary) =>
    action(
      group
        .command(name.split(" ")[1] ?? name)
        .summary(summary)
        .description(description),
      name,
    );
  const group = (name: CommandName, summary: string) =>
    program
      .command(name)
      .summary(summary)
      .description(summary)
      .helpOption("-h, --help", "show this help")
      .helpCommand(false);

  withDataDir(
    command(
      "start",
      "run the API server (migrates first)",
      "run the API server (applies pending migrations first)",
    )
      .option("--port <n>", "listen port (env PORT, default 8080; 0 picks a free one)")
      .option("--host <address>", "listen address (env HOST, default 127.0.0.1)")
      .option("--mode <mode>", "sandbox | production (env PAYSVC_MODE, default sandbox)"),
    "embedded database, credentials, server.json",
  )
    .option("--memory", "a throwaway in-memory embedded database")
    .addHelpText("after", START_ENVIRONMENT);
  withDataDir(
    command("migrate", "apply pending migrations and exit"),
    "the embedded database; DATABASE_URL for PostgreSQL",
  );
  withServer(
    command(
      "statement",
      "print an account's monthly statement",
      "print an account's monthly statement, built through the running server's API with the SDK",
    )
      .option("--account <id>", "the customer's USD account, InternalAccount:… (required)")
      .option("--month <YYYY-MM>", "the America/Chicago calendar month (required)")
      .option("--format <format>", "text | html | json (default text)")
      .option("--confirm", "send the statement's receipt once it printed")
      .option("--fee-lines", "show each fee as a line of its own")
      .option("--contact <text>", "where customers direct questions (printed on the statement)")
      .option("--no-wait", "a month not closed yet: say when to retry instead of waiting (up to 120 s)"),
  ).addHelpText("after", STATEMENT_NOTES);
  withServer(
    command("listen", "forward the platform's events to a local URL").requiredOption(
      "--forward-to <url>",
      "where each event is sent, e.g. http://127.0.0.1:3000/webhooks",
    ),
  ).addHelpText("after", LISTEN_NOTES);
  withServer(
    command("trigger", "run the sandbox simulation that produces an event").argument(
      "<event-type>",
      "the event to produce, e.g. INTERNAL_ACCOUNT.BALANCE_UPDATED",
    ),
  ).addHelpText("after", triggerHelp);
  withServer(
    command(
      "seed",
      "fill the sandbox with the README's customers, a card and a month of activity",
      "create the README's customers, their USD accounts, a card and a month of activity in the sandbox, through the API, and print their ids",
    ).option("--json", "print the ids as one JSON object instead of NAME=value lines"),
  ).addHelpText("after", SEED_NOTES);
  const logs = group("logs", "the running server's API request log");
  withServer(
    subcommand(logs, "logs tail", "follow the platform's API requests as the server answers them")
      .option("--status <code>", "only these statuses, comma-separated: 404, 4xx, 5xx")
      .option("--method <method>", "only this HTTP method (GET, POST…; comma-separate several)")
      .option("--path <prefix>", "only paths starting with this, e.g. /customers")
      .option("--json", "one JSON object per line"),
  ).addHelpText("after", LOGS_NOTES);
  const sandbox = group("sandbox", "manage the sandbox itself");
  withDataDir(
    subcommand(sandbox, "sandbox reset", "empty the sandbox (its embedded database)").option(
      "-y, --yes",
      "do not ask for confirmation",
    ),
    "its embedded database is removed",
  ).addHelpText("after", RESET_NOTES);
  withDataDir(
    command(
      "create-platform",
      "create a platform and its first API token",
      "create a platform and print it with its first API token (operator)",
    )
      .option("--name <name>", 'the platform\'s name (default "Platform")')
      .option("--environment <environment>", "sandbox | production (default sandbox)")
      .option("--mode <mode>", "which master key applies: sandbox | production (env PAYSVC_MODE)"),
    "the embedded database",
  ).addHelpText("after", OPERATOR_NOTES);
  withPlatform(
    command(
      "card-limits",
      "set a platform's live-card caps",
      "set a platform's live-card caps, CARD_LIMIT_REACHED (operator)",
    ),
    (c) =>
      c
        .option("--max-live-cards <n>", "live cards allowed on the platform (required)")
        .option(
          "--per-cardholder <n|none>",
          "live cards per cardholder; none removes the cap; default: kept",
        ),
  );
  withPlatform(
    command(
      "daily-volume-limit",
      "set a platform's daily volume limit",
      "set a platform's daily volume limit, DAILY_VOLUME_LIMIT_EXCEEDED (operator)",
    ),
    (c) => c.option("--limit <cents>", "USD cents executed per America/Chicago day (required)"),
  );
  withPlatform(
    command(
      "rotate-webhook-key",
      "rotate a platform's webhook signing key",
      "rotate a platform's webhook signing key (operator)",
    ),
  );
  withDataDir(
    command(
      "rotate-master-key",
      "seal stored secrets again under the master key",
      "seal every stored secret again under the current master key (operator)",
    ).option("--mode <mode>", "sandbox | production (env PAYSVC_MODE)"),
    "the embedded database; its master.key is replaced",
  ).addHelpText(
    "after",
    "\nRefused while a server holds the embedded directory: stop it first. On\n" +
      "PostgreSQL, give the new key as PAYSVC_MASTER_KEY and the old one in\n" +
      'PAYSVC_PREVIOUS_MASTER_KEYS (README "Secrets at rest").',
  );
  return program;
}

/** `paysvc --port 0` means `paysvc start --port 0`: no command name (only options) runs `start`. */
function withDefaultCommand(argv: readonly string[]): string[] {
  const first = argv[0];
  const asksProgram = ["-h", "--help", "-V", "--version"].includes(first ?? "");
  if (first === undefined || (first.startsWith("-") && !asksProgram)) return ["start", ...argv];
  return [...argv];
}

/**
 * Parses `paysvc`'s arguments. Help and the version are printed to `output.stdout`; a command line that
 * cannot be parsed (unknown command or option, an option without its value, extra arguments) prints the
 * error and the usage to `output.stderr`. Both end in CommandLineExit with the exit code.
 */
export function parseCommandLine(argv: readonly string[], output: CliOutput = silent): CommandLine {
  const args = withDefaultCommand(argv);
  let parsed: CommandLine | undefined;
  const program = buildProgram(output, (name, options, operands) => {
    parsed = { name, options, operands, args: args.slice(1) };
  });
  try {
    program.parse(args, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    throw new CommandLineExit(error.exitCode, error.message.replace(/^error: /, ""));
  }
  if (!parsed) throw new CommandLineExit(1, "no command given");
  return parsed;
}
