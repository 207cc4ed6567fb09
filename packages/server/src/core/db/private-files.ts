import { chmod, lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

const GROUP_AND_OTHER = 0o077;

/**
 * Removes group and other permissions from `dir` and everything under it (symbolic links are left
 * alone; entries that vanish meanwhile are skipped). Returns how many entries were tightened.
 */
export async function tightenTree(dir: string): Promise<number> {
  let tightened = 0;
  const visit = async (path: string): Promise<void> => {
    const stats = await lstat(path).catch(() => undefined);
    if (!stats) return;
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & GROUP_AND_OTHER) !== 0) {
      if (
        await chmod(path, stats.mode & 0o700).then(
          () => true,
          () => false,
        )
      )
        tightened++;
    }
    if (stats.isDirectory()) for (const entry of await readdir(path)) await visit(join(path, entry));
  };
  await visit(dir);
  return tightened;
}
