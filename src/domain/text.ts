/**
 * Text both databases store alike. PostgreSQL refuses a NUL character in text (`invalid byte sequence
 * for encoding "UTF8": 0x00`) while SQLite keeps it, and a lone UTF-16 surrogate is not Unicode at all
 * (each driver would silently turn it into U+FFFD), so neither may reach a query.
 */
export type TextFault = 'nul' | 'surrogate';

// ES2024's String.prototype.isWellFormed (Node 20+); the compiler's library stops at ES2023.
type WellFormed = string & { isWellFormed(): boolean; toWellFormed(): string };

/** Why `text` cannot be stored as it is, or null when it can. */
export function textFault(text: string): TextFault | null {
  if (text.includes('\u0000')) return 'nul';
  return (text as WellFormed).isWellFormed() ? null : 'surrogate';
}

export const TEXT_FAULT_MESSAGE: Record<TextFault, string> = {
  nul: 'Text must not contain the NUL character (\\u0000)',
  surrogate: 'Text must be valid Unicode (a lone UTF-16 surrogate is not)',
};

/** `text` made storable: NULs dropped, a lone surrogate replaced by U+FFFD (for text no user sent: a model's). */
export function storableText(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  return (withoutNul as WellFormed).isWellFormed() ? withoutNul : (withoutNul as WellFormed).toWellFormed();
}

/** Every string inside a parsed JSON value made storable (see storableText). */
export function storableStrings(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableStrings(item)]));
  }
  return value;
}
