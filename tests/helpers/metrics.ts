// Reads Prometheus text exposition (as /metrics answers it) for the tests.

/** The value of the sample `name{labels}` whose labels include all of `labels`, summed over the rest; 0 if none. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const has = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) sum += Number(m[4]);
  }
  return sum;
}

/** Every value the label takes in the samples of a metric. */
export function labelValues(text: string, name: string, label: string): string[] {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const m = new RegExp(`[{,]${label}="((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (m) values.add(m[1]!);
  }
  return [...values];
}
