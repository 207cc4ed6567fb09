import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import { type CommandLine, CommandLineExit, parseCommandLine } from "./cli/program.js";
import { StatementSettings } from "./cli/statement.js";
import { DEFAULT_WALLET_VERIFICATION_THRESHOLD } from "./core/deps.js";
import { MAX_AMOUNT } from "./core/money.js";

/** A UMA domain: a DNS name of two labels or more, the last one letters (as in `$name@domain.tld`), no port. */
const UMA_DOMAIN_PATTERN = "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$";

const Settings = Type.Object({
  command: Type.Enum(["start", "migrate", "create-platform", "statement", "rotate-master-key"]),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  mode: Type.Enum(["sandbox", "production"]),
  dataDir: Type.String({ minLength: 1 }),
  memory: Type.Boolean(),
  logLevel: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
  settlementLagHours: Type.Number({ minimum: 0, maximum: 24 * 30 }),
  /** USD cents; payouts above it to wallets that are not ACTIVE need ownership verification first. */
  walletVerificationThreshold: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT }),
  /** Sandbox platforms may send webhooks to loopback and private addresses (core/outbound). */
  allowPrivateTargets: Type.Boolean(),
  /** The service's public base URL for the links it makes (card reveal); default: the listen address. */
  publicUrl: Type.Optional(Type.String({ pattern: "^https?://[^/?#]+$" })),
  /**
   * UMA domains reached at another base URL than their own (PAYSVC_UMA_DOMAINS), for local development:
   * two paysvc processes on loopback paying each other (uma/counterparty.ts vaspBaseUrl).
   */
  umaDomains: Type.Optional(
    Type.Record(Type.String({ pattern: UMA_DOMAIN_PATTERN }), Type.String({ pattern: "^https?://" })),
  ),
  /** Enables GET /metrics for scrapers presenting it as a Bearer token (PAYSVC_METRICS_TOKEN). */
  metricsToken: Type.Optional(Type.String({ minLength: 32, pattern: "^[\\x21-\\x7e]+$" })),
  platformName: Type.String({ minLength: 1 }),
  environment: Type.Enum(["SANDBOX", "PRODUCTION"]),
  statement: Type.Optional(StatementSettings),
});
export type Settings = Static<typeof Settings>;

/** The commands whose settings this module parses; the operator commands parse their own (cli/). */
const SETTINGS_COMMANDS = ["start", "migrate", "create-platform", "statement", "rotate-master-key"];

/**
 * Parses argv and the environment once; an invalid setting fails fast with one readable message. The
 * command line itself is commander's (cli/program.ts); help and usage errors become errors here.
 */
export function parseSettings(argv: string[], env: NodeJS.ProcessEnv): Readonly<Settings> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof CommandLineExit) throw new Error(`invalid configuration: ${error.message}`);
    throw error;
  }
  return settingsFrom(line, env);
}

/** The settings of a parsed command line (cli/program.ts) and the environment, checked and frozen. */
export function settingsFrom(line: CommandLine, env: NodeJS.ProcessEnv): Readonly<Settings> {
  const { name: command, options: values } = line;
  if (!SETTINGS_COMMANDS.includes(command))
    throw new Error(`invalid configuration: ${command} parses its own arguments`);
  const host = text(values.host) ?? env.HOST ?? "127.0.0.1";
  const databaseUrl = env.DATABASE_URL ? checkedDatabaseUrl(env.DATABASE_URL) : undefined;
  const candidate = {
    command,
    port: Number(text(values.port) ?? env.PORT ?? 8080),
    host,
    ...(databaseUrl ? { databaseUrl } : {}),
    mode: text(values.mode) ?? env.PAYSVC_MODE ?? "sandbox",
    dataDir: text(values.dataDir) ?? env.PAYSVC_DATA_DIR ?? ".paysvc",
    memory: values.memory === true,
    logLevel: env.LOG_LEVEL ?? "info",
    settlementLagHours: Number(env.PAYSVC_SETTLEMENT_LAG_HOURS ?? 72),
    walletVerificationThreshold: Number(
      env.PAYSVC_WALLET_VERIFICATION_THRESHOLD ?? DEFAULT_WALLET_VERIFICATION_THRESHOLD,
    ),
    allowPrivateTargets: booleanSetting(env.PAYSVC_ALLOW_PRIVATE_TARGETS) ?? isLoopbackHost(host),
    ...(env.PAYSVC_PUBLIC_URL ? { publicUrl: env.PAYSVC_PUBLIC_URL.replace(/\/+$/, "") } : {}),
    ...(env.PAYSVC_UMA_DOMAINS?.trim() ? { umaDomains: umaDomainsSetting(env.PAYSVC_UMA_DOMAINS) } : {}),
    ...(env.PAYSVC_METRICS_TOKEN ? { metricsToken: env.PAYSVC_METRICS_TOKEN } : {}),
    platformName: text(values.name) ?? "Platform",
    environment: (text(values.environment) ?? "SANDBOX").toUpperCase(),
    ...(command === "statement" ? { statement: statementCandidate(values, env) } : {}),
  };
  const errors = [...Value.Errors(Settings, candidate)];
  if (errors.length > 0) {
    const described = errors.map((e) => `${e.instancePath.slice(1) || "settings"} ${e.message}`).join("; ");
    throw new Error(`invalid configuration: ${described}; see paysvc ${command} --help`);
  }
  return Object.freeze(candidate as Settings);
}

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;

/**
 * DATABASE_URL must be a postgres:// or postgresql:// URL that parses: refused here with what is wrong,
 * and never echoed, since it may hold a password.
 */
function checkedDatabaseUrl(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== "postgres" && scheme !== "postgresql")
    refuseDatabaseUrl(scheme ? `is a ${scheme}: URL, not a PostgreSQL one` : "is not a URL");
  if (!/^[a-z]+:\/\//i.test(value)) refuseDatabaseUrl("is missing the // after the scheme");
  if (!URL.canParse(value)) {
    const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(value)?.[1] ?? "";
    const port = authority
      .replace(/^.*@/, "")
      .replace(/^\[.*\]/, "")
      .split(":")[1];
    refuseDatabaseUrl(
      port !== undefined && !/^\d*$/.test(port) ? "has a port that is not a number" : "is not a valid URL",
    );
  }
  return value;
}

function refuseDatabaseUrl(why: string): never {
  throw new Error(
    `invalid configuration: DATABASE_URL ${why}; expected postgres://user:password@host:5432/database`,
  );
}

/**
 * PAYSVC_UMA_DOMAINS: `domain=baseUrl` entries, comma-separated. Each domain is a DNS name without port
 * (matched against the domain of a UMA address, lowercased), each base URL an http(s) URL without
 * credentials, query or fragment; a domain given twice is refused. Empty entries are skipped.
 */
function umaDomainsSetting(value: string): Readonly<Record<string, string>> {
  const map: Record<string, string> = {};
  for (const entry of value.split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    const equals = entry.indexOf("=");
    if (equals < 0) refuseUmaDomains(`entry "${entry}" is not domain=URL`);
    const domain = entry.slice(0, equals).trim().toLowerCase();
    const raw = entry.slice(equals + 1).trim();
    if (/:\d*$/.test(domain))
      refuseUmaDomains(`domain "${domain}" has a port: a UMA domain is a DNS name without port`);
    if (!new RegExp(UMA_DOMAIN_PATTERN).test(domain))
      refuseUmaDomains(`domain "${domain}" is not a DNS name like peer.localhost or pay.example.com`);
    if (Object.hasOwn(map, domain)) refuseUmaDomains(`names ${domain} twice`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      refuseUmaDomains(`URL "${raw}" of ${domain} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      refuseUmaDomains(`URL "${raw}" of ${domain} is not an http(s) URL`);
    if (url.username || url.password || raw.includes("?") || raw.includes("#"))
      refuseUmaDomains(`URL "${raw}" of ${domain} must have no credentials, query or fragment`);
    map[domain] = raw.replace(/\/+$/, "");
  }
  return Object.freeze(map);
}

function refuseUmaDomains(reason: string): never {
  throw new Error(`invalid configuration: PAYSVC_UMA_DOMAINS ${reason}; see paysvc start --help`);
}

/** `true`/`false` (also 1/0, yes/no); anything else is returned as is, for the schema to refuse. */
function booleanSetting(value: string | undefined): boolean | string | undefined {
  if (value === undefined || value === "") return undefined;
  const text = value.trim().toLowerCase();
  if (["true", "1", "yes"].includes(text)) return true;
  if (["false", "0", "no"].includes(text)) return false;
  return value;
}

/**
 * Whether the service listens on loopback only: then whoever can reach it is on this machine, and
 * webhooks to this machine are how local development works (docs/decisions.md "Security (issue 16)").
 */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost") return true;
  return isIP(bare) !== 0 && ipaddr.process(bare).range() === "loopback";
}

function statementCandidate(values: CommandLine["options"], env: NodeJS.ProcessEnv): Record<string, unknown> {
  const missing = ["account", "month"].filter((flag) => typeof values[flag] !== "string");
  if (missing.length > 0) {
    throw new Error(
      `invalid configuration: statement needs ${missing.map((m) => `--${m}`).join(" and ")}; see paysvc statement --help`,
    );
  }
  const { PAYSVC_CLIENT_ID: clientId, PAYSVC_CLIENT_SECRET: clientSecret } = env;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new Error("invalid configuration: set both PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET, or neither");
  }
  // No default URL here: without --url or PAYSVC_URL the command finds the server (cli/server-file.ts).
  const url = text(values.url) ?? env.PAYSVC_URL;
  return {
    account: values.account,
    month: values.month,
    format: text(values.format) ?? "text",
    ...(url !== undefined ? { url } : {}),
    confirm: values.confirm === true,
    feesAsSeparateLines: values.feeLines === true,
    ...(typeof values.contact === "string" ? { contact: values.contact } : {}),
    ...(clientId !== undefined && clientSecret !== undefined
      ? { credentials: { clientId, clientSecret } }
      : {}),
  };
}
