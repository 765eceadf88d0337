/** Reading one environment variable each, with the one-line error that names it (DESIGN §5). */

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function nonEmpty(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = nonEmpty(env, name);
  if (value === null) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = nonEmpty(env, name);
  if (value === null) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

export function positiveNumber(env: Env, name: string, fallback: number): number {
  const value = nonEmpty(env, name);
  if (value === null) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new ConfigError(`${name} must be a positive number (got "${value}")`);
  return parsed;
}

export function bool(env: Env, name: string): boolean {
  const value = nonEmpty(env, name);
  if (value === null) return false;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
}

export function url(env: Env, name: string, protocols: readonly string[]): string | null {
  const value = nonEmpty(env, name);
  if (value === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.map((p) => p.replace(':', '://')).join(' or ')}`);
  }
  return value;
}

export function host(env: Env): string {
  const value = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(value))
    throw new ConfigError(`HOST is not a valid host name or address (got "${value}")`);
  return value;
}
