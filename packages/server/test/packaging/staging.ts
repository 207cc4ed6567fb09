import { cp, mkdir, readdir, symlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { repoDir } from "./tarballs.js";

/** The folders of a package that its build never reads: its outputs, its installed modules, its tests. */
const NOT_COPIED = new Set(["dist", "node_modules", "test"]);

/**
 * Makes `dir` a copy of the checkout in which `npm pack` can run the packages' real lifecycle scripts
 * (the SDK's `prepare`, the server's `prepack`): in the checkout itself they would delete and rebuild
 * dist/ folders that other test files run from, and that the global setup may be compiling meanwhile.
 * `workspaces` are copied without their outputs; node_modules links to the checkout's, except @paysvc,
 * whose packages resolve to the copies (the server compiles against the SDK the copy builds); the
 * dashboard workspace, which prepack only reads, is linked.
 */
export async function stageCheckout(dir: string, workspaces: string[]): Promise<void> {
  await cp(join(repoDir, "tsconfig.base.json"), join(dir, "tsconfig.base.json"));
  for (const workspace of workspaces) {
    const from = join(repoDir, workspace);
    await cp(from, join(dir, workspace), {
      recursive: true,
      filter: (source) => dirname(source) !== from || !NOT_COPIED.has(basename(source)),
    });
  }
  await symlink(join(repoDir, "packages/dashboard"), join(dir, "packages/dashboard"));

  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "@paysvc"), { recursive: true });
  for (const entry of await readdir(join(repoDir, "node_modules"))) {
    if (entry !== "@paysvc") await symlink(join(repoDir, "node_modules", entry), join(modules, entry));
  }
  for (const workspace of workspaces) {
    const name = basename(workspace);
    await symlink(join(dir, workspace), join(modules, "@paysvc", name));
  }
}
