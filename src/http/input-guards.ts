import type { FastifyRequest } from 'fastify';
import { TEXT_FAULT_MESSAGE, textFault } from '../domain/text.js';
import { AppError } from '../errors.js';

/**
 * Checks every request passes before its schema is consulted, so that no route can forget them:
 * JSON nesting is bounded, and no string (value or key, in the path, the query or the body) may hold
 * text a database cannot store the same way on SQLite and PostgreSQL (domain/text.ts).
 */

/** Deepest JSON nesting a body may have; the deepest body the API takes nests 5 levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON `text` nests objects and arrays deeper than `max`. A scan, not a parse: a body of a
 * million `[` would cost JSON.parse most of a second, and a deep value overflows the stack of every
 * recursive consumer after it (JSON.stringify, the schema validator).
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false; // an unterminated string: JSON.parse refuses it
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Index of the quote that ends the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

type Loc = Array<string | number>;

/** The location of the first string in `value` (keys included) that cannot be stored, with its fault. */
function firstUnstorable(value: unknown, where: string): { loc: Loc; msg: string } | null {
  // Iterative, so no nesting can overflow the stack.
  const pending: Array<{ value: unknown; loc: Loc }> = [{ value, loc: [where] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: current, loc } = next;
    if (typeof current === 'string') {
      const fault = textFault(current);
      if (fault) return { loc, msg: TEXT_FAULT_MESSAGE[fault] };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], loc: [...loc, i] });
    } else if (typeof current === 'object' && current !== null && !Buffer.isBuffer(current)) {
      for (const [key, child] of Object.entries(current).reverse()) {
        const fault = textFault(key);
        if (fault) return { loc: [...loc, key], msg: TEXT_FAULT_MESSAGE[fault] };
        pending.push({ value: child, loc: [...loc, key] });
      }
    }
  }
  return null;
}

/**
 * A preValidation hook on every route: a NUL character or a lone surrogate anywhere in the path, query
 * or body is a 422 naming the field (SPEC §7.1 shape), before anything is read or written.
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  const found =
    firstUnstorable(request.params, 'path') ??
    firstUnstorable(request.query, 'query') ??
    firstUnstorable(request.body, 'body');
  if (found) throw new AppError(422, [{ loc: found.loc, msg: found.msg, type: 'string_unstorable' }]);
}
