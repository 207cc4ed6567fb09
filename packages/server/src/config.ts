import { parseArgs } from "node:util";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";

const Settings = Type.Object({
  command: Type.Enum(["start", "migrate", "create-platform"]),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  mode: Type.Enum(["sandbox", "production"]),
  dataDir: Type.String({ minLength: 1 }),
  memory: Type.Boolean(),
  logLevel: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
  settlementLagHours: Type.Number({ minimum: 0, maximum: 24 * 30 }),
  platformName: Type.String({ minLength: 1 }),
  environment: Type.Enum(["SANDBOX", "PRODUCTION"]),
});
export type Settings = Static<typeof Settings>;

export const usage = `usage: paysvc <start|migrate|create-platform> [options]
  start            run the API server (migrates first)
  migrate          apply pending migrations and exit
  create-platform  create a platform and print its API token (--name, --environment)
options:
  --port N         listen port (env PORT, default 8080)
  --host H         listen address (env HOST, default 127.0.0.1)
  --memory         throwaway in-memory embedded database
  --data-dir DIR   embedded database and credentials directory (env PAYSVC_DATA_DIR, default .paysvc)
  --mode M         sandbox | production (env PAYSVC_MODE, default sandbox)
environment:
  DATABASE_URL     postgres://… to use PostgreSQL instead of the embedded database
  PAYSVC_SETTLEMENT_LAG_HOURS  card settlement lag before a balance-changes window closes (default 72)
  LOG_LEVEL        fatal | error | warn | info | debug | trace | silent (default info)`;

/** Parses argv and the environment once; an invalid setting fails fast with one readable message. */
export function parseSettings(argv: string[], env: NodeJS.ProcessEnv): Readonly<Settings> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      memory: { type: "boolean" },
      "data-dir": { type: "string" },
      mode: { type: "string" },
      name: { type: "string" },
      environment: { type: "string" },
    },
  });
  const candidate = {
    command: positionals[0] ?? "start",
    port: Number(values.port ?? env.PORT ?? 8080),
    host: values.host ?? env.HOST ?? "127.0.0.1",
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    mode: values.mode ?? env.PAYSVC_MODE ?? "sandbox",
    dataDir: values["data-dir"] ?? env.PAYSVC_DATA_DIR ?? ".paysvc",
    memory: values.memory ?? false,
    logLevel: env.LOG_LEVEL ?? "info",
    settlementLagHours: Number(env.PAYSVC_SETTLEMENT_LAG_HOURS ?? 72),
    platformName: values.name ?? "Platform",
    environment: (values.environment ?? "SANDBOX").toUpperCase(),
  };
  const errors = [...Value.Errors(Settings, candidate)];
  if (errors.length > 0) {
    const described = errors.map((e) => `${e.instancePath.slice(1) || "settings"} ${e.message}`).join("; ");
    throw new Error(`invalid configuration: ${described}\n${usage}`);
  }
  return Object.freeze(candidate as Settings);
}
