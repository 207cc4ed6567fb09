/** One sample of a Prometheus text exposition: metric name, labels, value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text format (version 0.0.4): comment lines are skipped, every other line must parse. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) if (key) labels[key] = value ?? "";
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** Every value the label takes across the samples named `name`. */
export function labelValues(samples: Sample[], name: string, label: string): Set<string> {
  return new Set(samples.filter((s) => s.name === name).map((s) => s.labels[label] ?? ""));
}
