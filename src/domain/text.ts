/**
 * Text both databases store alike. PostgreSQL refuses a NUL character in text (`invalid byte sequence
 * for encoding "UTF8": 0x00`) while SQLite keeps it, and a lone UTF-16 surrogate is not Unicode at all
 * (each driver would silently turn it into U+FFFD), so neither may reach a query.
 */
export type TextFault = 'nul' | 'surrogate';

// ES2024's String.prototype.isWellFormed (Node 20+); the compiler's library stops at ES2023.
type WellFormed = string & { isWellFormed(): boolean };

/** Why `text` cannot be stored as it is, or null when it can. */
export function textFault(text: string): TextFault | null {
  if (text.includes('\u0000')) return 'nul';
  return (text as WellFormed).isWellFormed() ? null : 'surrogate';
}

export const TEXT_FAULT_MESSAGE: Record<TextFault, string> = {
  nul: 'Text must not contain the NUL character (\\u0000)',
  surrogate: 'Text must be valid Unicode (a lone UTF-16 surrogate is not)',
};
