import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  buildEnded,
  installOffline,
  pack,
  repoDir,
  type Tarball,
} from "../../server/test/packaging/tarballs.js";

const run = promisify(execFile);
// Spawns npm, node and tsc like the files that use paysvc-process.js, so the sequencer starts it early too.

let work: string;
let project: string;
let sdk: Tarball;
// The global setup compiles dist/ (what `prepare` does); the tarball is packed from it.
beforeAll(() => buildEnded(), 300_000);
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "paysvc-pack-sdk-"));
  project = join(work, "project");
  await mkdir(project);
  sdk = await pack("packages/sdk", work);
  await installOffline(project, [sdk]);
}, 300_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const installed = () => join(project, "node_modules/@paysvc/sdk");

describe("@paysvc/sdk packed and installed into an empty project (issue 22 §5)", () => {
  test("the tarball holds the README, the LICENSE, both entries with their types, the sources, and no test", () => {
    expect(sdk.files).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/node.js",
        "dist/node.d.ts",
        "src/index.ts",
        "src/node.ts",
      ]),
    );
    expect(sdk.files.filter((file) => /\.test\.|(^|\/)test\//.test(file))).toEqual([]);
    // Every compiled file has its source: no leftover of a removed module ships.
    const compiled = sdk.files.filter((file) => file.startsWith("dist/") && file.endsWith(".js"));
    const orphans = compiled.filter(
      (file) => !sdk.files.includes(file.replace(/^dist\//, "src/").replace(/\.js$/, ".ts")),
    );
    expect(orphans).toEqual([]);
    expect(sdk.manifest.license).toBe("Apache-2.0");
  });

  test("every source map (.js.map and .d.ts.map) names sources that are in the package", async () => {
    const maps = sdk.files.filter((file) => file.endsWith(".map"));
    expect(maps.some((file) => file.endsWith(".d.ts.map"))).toBe(true);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(await readFile(join(installed(), map), "utf8")) as { sources: string[] };
      for (const source of sources) {
        const path = join(installed(), map, "..", source).slice(installed().length + 1);
        if (!sdk.files.includes(path)) missing.push(`${map} -> ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("a Node program imports the root and /node entries and calls them: a signed test delivery verifies", async () => {
    const script = `
      import { PaysvcClient, WebhookVerificationError, parseSignatureHeader } from "@paysvc/sdk";
      import { PaysvcClient as NodeClient, signTestWebhook, verifyWebhook } from "@paysvc/sdk/node";
      const event = { id: "Webhook:1", type: "TEST", timestamp: new Date().toISOString(), data: {} };
      const signed = signTestWebhook(event);
      const options = { baseUrl: "http://127.0.0.1:9/2025-10-13", clientId: "id", clientSecret: "secret" };
      const client = new NodeClient(options);
      const verified = await client.webhooks.verify(signed.body, { "X-Service-Signature": signed.header }, signed.jwks);
      let reason;
      try { verifyWebhook(signed.body + " ", signed.header, signed.jwks); } catch (e) { reason = e instanceof WebhookVerificationError && e.reason; }
      console.log(JSON.stringify({
        kid: parseSignatureHeader(signed.header).kid === signed.jwks.keys[0].kid,
        verified: verified.id,
        reason,
        rootVerifies: "verify" in new PaysvcClient(options).webhooks,
        nodeIsRoot: client instanceof PaysvcClient,
      }));`;
    await writeFile(join(project, "use.mjs"), script);
    const { stdout } = await run(process.execPath, ["use.mjs"], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      kid: true,
      verified: "Webhook:1",
      reason: "BAD_SIGNATURE",
      rootVerifies: false,
      nodeIsRoot: true,
    });
  });

  test("a TypeScript program type-checks against both entries' declarations (NodeNext resolution)", async () => {
    const source = `
      import { PaysvcClient, type WebhookEvent } from "@paysvc/sdk";
      import { PaysvcClient as NodeClient, verifyWebhook } from "@paysvc/sdk/node";
      const client = new NodeClient({ baseUrl: "http://127.0.0.1:9/2025-10-13", clientId: "a", clientSecret: "b" });
      export const verify: (body: string) => Promise<WebhookEvent> = (body) => client.webhooks.verify(body, {});
      export const root: PaysvcClient = client;
      export const check: typeof verifyWebhook = verifyWebhook;
    `;
    await writeFile(join(project, "use.ts"), source);
    const tsconfig = {
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        strict: true,
        noEmit: true,
        // Checks this program's use of the declarations (they were checked when emitted), at a lower cost.
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(repoDir, "node_modules/@types")],
      },
      files: ["use.ts"],
    };
    await writeFile(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = join(repoDir, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe("");
  }, 180_000);

  test("the root entry bundles for a browser: nothing under it imports node:* or a Node-only module", async () => {
    const bundled = await build({
      stdin: { contents: 'export * from "@paysvc/sdk";', resolveDir: project },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    expect(bundled.errors).toEqual([]);
    expect(bundled.outputFiles[0]?.text).toMatch(/\bPaysvcClient = class\b/);
  });

  test("the /node entry does not bundle for a browser: the check above can fail", async () => {
    const bundling = build({
      entryPoints: [join(installed(), "dist/node.js")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    await expect(bundling).rejects.toThrow(/node:crypto/);
  });
});
