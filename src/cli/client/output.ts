/** Where a command writes: stdout for results, stderr for progress and errors. */
export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export interface Column<T> {
  header: string;
  value(row: T): string;
  /** Longer values are cut with an ellipsis so a row stays on one line. */
  max?: number;
}

function cell(text: string, max: number | undefined): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return max !== undefined && flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A plain-text table: a header row, then one line per row, columns padded to their widest cell. */
export function table<T>(rows: readonly T[], columns: Column<T>[]): string {
  if (rows.length === 0) return '(none)\n';
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row), c.max)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return `${[line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n')}\n`;
}

/** `key: value` lines for one record. */
export function fields(pairs: Array<[string, string | number | boolean | null | undefined]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return `${pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${v === null ? '-' : String(v)}`)
    .join('\n')}\n`;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `2025-01-02T03:04:05.000Z` → `2025-01-02 03:04` (UTC), or `-`. */
export function shortTime(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : '-';
}
