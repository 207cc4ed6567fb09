import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";

/** Baselines kept in the repository; a run writes its screenshots (and diffs) next to them. */
export const BASELINES = fileURLToPath(new URL("./baselines/", import.meta.url));
export const SCREENSHOTS = fileURLToPath(new URL("./screenshots/", import.meta.url));
/** `UPDATE_DASHBOARD_BASELINES=1` writes this run's screenshots as the new baselines. */
const UPDATE = process.env.UPDATE_DASHBOARD_BASELINES === "1";
/** Share of pixels allowed to differ (anti-aliasing), each compared with pixelmatch's colour threshold. */
export const MAX_DIFF_RATIO = 0.005;

export interface Comparison {
  differentPixels: number;
  ratio: number;
  sizeMatches: boolean;
  actualPath: string;
  diffPath?: string;
}

/** Compares a screenshot with its baseline (or writes the baseline when updating). */
export function compareWithBaseline(name: string, screenshot: Buffer): Comparison {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const actualPath = `${SCREENSHOTS}${name}.png`;
  writeFileSync(actualPath, screenshot);
  const baselinePath = `${BASELINES}${name}.png`;
  if (UPDATE) {
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(baselinePath, screenshot);
  }
  if (!existsSync(baselinePath)) {
    throw new Error(`No baseline ${baselinePath}: run once with UPDATE_DASHBOARD_BASELINES=1 and keep it.`);
  }
  const expected = PNG.sync.read(readFileSync(baselinePath));
  const actual = PNG.sync.read(screenshot);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    return { differentPixels: Number.POSITIVE_INFINITY, ratio: 1, sizeMatches: false, actualPath };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const differentPixels = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: 0.1,
  });
  const diffPath = `${SCREENSHOTS}${name}.diff.png`;
  writeFileSync(diffPath, PNG.sync.write(diff));
  return {
    differentPixels,
    ratio: differentPixels / (actual.width * actual.height),
    sizeMatches: true,
    actualPath,
    diffPath,
  };
}
