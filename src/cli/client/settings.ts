import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ClientError, EXIT } from './errors.js';

/**
 * Where the API client finds its server and key. This is the one exception to "only config.ts reads
 * process.env": config.ts is the server's configuration, and the client is a separate program that
 * must not need (or validate) any of it. Everything the client reads from the environment is here.
 */
export interface ClientSettings {
  baseUrl: string;
  apiKey: string;
}

interface ProfileFile {
  url?: unknown;
  api_key?: unknown;
}

export function profilePath(env: NodeJS.ProcessEnv): string {
  return env.KEEPSAKE_PROFILE?.trim() || join(homedir(), '.config', 'keepsake', 'profile.json');
}

function readProfile(path: string, explicit: boolean): ProfileFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && !explicit) return {};
    throw new ClientError(EXIT.usage, `cannot read profile ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as ProfileFile;
  } catch (err) {
    throw new ClientError(EXIT.usage, `profile ${path} is not a JSON object: ${(err as Error).message}`);
  }
}

/** KEEPSAKE_URL and KEEPSAKE_API_KEY win over the profile file's `url` and `api_key`. */
export function loadClientSettings(env: NodeJS.ProcessEnv = process.env): ClientSettings {
  const profile = readProfile(profilePath(env), Boolean(env.KEEPSAKE_PROFILE?.trim()));
  const url =
    env.KEEPSAKE_URL?.trim() || (typeof profile.url === 'string' ? profile.url : '') || 'http://127.0.0.1:8080';
  const apiKey = env.KEEPSAKE_API_KEY?.trim() || (typeof profile.api_key === 'string' ? profile.api_key : '');
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ClientError(EXIT.usage, `KEEPSAKE_URL must be an http(s) URL (got "${url}")`);
  }
  if (!apiKey)
    throw new ClientError(
      EXIT.auth,
      `no API key: set KEEPSAKE_API_KEY or "api_key" in ${profilePath(env)} (create one on the web app's API keys page)`,
    );
  return { baseUrl: url.replace(/\/+$/, ''), apiKey };
}
