import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../usage.js';

type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** parseArgs with `--json` on every command; its errors become usage errors (exit 2). */
export function parse(args: string[], options: Options): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function str(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function required(values: Values, name: string): string {
  const value = str(values, name)?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** The one positional id a command acts on. */
export function idArg(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0].trim()) throw new UsageError(`expected one ${what} id`);
  return positionals[0].trim();
}

export function int(values: Values, name: string, min: number, max: number): number | undefined {
  const value = str(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(value);
}

export function num(values: Values, name: string): number | undefined {
  const value = str(values, name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number`);
  return parsed;
}

export function bool(values: Values, name: string): boolean | undefined {
  const value = str(values, name);
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`--${name} must be true or false`);
}

/** An ISO 8601 date-time (a bare YYYY-MM-DD means midnight UTC). */
export function time(values: Values, name: string): string | undefined {
  const value = str(values, name);
  if (value === undefined) return undefined;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new UsageError(`--${name} must be an ISO 8601 date or date-time`);
  return new Date(ms).toISOString();
}

export function list(values: Values, name: string): string[] | undefined {
  const value = str(values, name);
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}
