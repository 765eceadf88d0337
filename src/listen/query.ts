/**
 * Typed query values as the reference's framework reads them: a value that is not of its type
 * refuses the socket (close 1008) with the field named, before the stream starts.
 */
export class QueryTypeError extends Error {}

export function queryInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\s*[+-]?\d+\s*$/.test(value))
    throw new QueryTypeError(`${name}: Input should be a valid integer, unable to parse string as an integer`);
  return Number(value);
}

const TRUE = new Set(['1', 'true', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['0', 'false', 'no', 'off', 'f', 'n']);

export function queryBool(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const text = value.trim().toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new QueryTypeError(`${name}: Input should be a valid boolean, unable to interpret input`);
}

/** A language code (`en`, `pt-BR`) or `multi`/`auto`; anything else is not a language any provider takes. */
export const LANGUAGE_CODE = /^(multi|auto|[a-z]{2,3}(-[a-z0-9]{2,8})*)$/i;
