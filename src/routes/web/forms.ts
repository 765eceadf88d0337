import { type TSchema, Type } from 'typebox';
import { errors } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';

export type FormBody = Record<string, string | string[]>;

const FORM_LIMIT = 256 * 1024;

/** `a=1&b=2&b=3` → {a:'1', b:['2','3']}; names that could reach the prototype are dropped. */
export function parseForm(body: string): FormBody {
  const out: FormBody = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else out[name] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** HTML forms post `application/x-www-form-urlencoded`; only the web plugin accepts it. */
export function registerFormParser(app: TypedApp): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => done(null, parseForm(String(body))),
  );
}

/** A text field: forms send strings only (the body validator does not coerce). */
export const Text = (maxLength: number, minLength = 0) => Type.String({ maxLength, minLength });
export const OptionalText = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
/** A group of checkboxes: absent, one value or several. */
export const Checked = Type.Optional(
  Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 64 })]),
);
/** `YYYY-MM-DDTHH:MM` from `<input type="datetime-local">`, or blank. */
export const LocalDateTime = Type.Optional(
  Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?)?$', maxLength: 19 }),
);
/** A number typed into a form field, or blank. */
export const NumberText = Type.Optional(Type.String({ pattern: '^\\s*(-?\\d+(\\.\\d+)?)?\\s*$', maxLength: 32 }));

export function values(field: string | string[] | undefined): string[] {
  if (field === undefined) return [];
  return Array.isArray(field) ? field : [field];
}

/** Trimmed text, or undefined for a blank field. */
export function filled(field: string | undefined): string | undefined {
  const trimmed = field?.trim();
  return trimmed ? trimmed : undefined;
}

export function numberOrUndefined(field: string | undefined): number | undefined {
  const text = filled(field);
  return text === undefined ? undefined : Number(text);
}

const NOTICES: Record<string, string> = {
  created: 'Created.',
  saved: 'Saved.',
  deleted: 'Deleted.',
  revoked: 'Key revoked.',
  enabled: 'App enabled.',
  disabled: 'App disabled.',
  completed: 'Marked as done.',
  reopened: 'Marked as open.',
  discarded: 'Conversation discarded: it no longer shows in the list.',
  restored: 'Conversation restored.',
  progress: 'Progress recorded.',
};

/** Pages show a fixed message for `?done=<code>` after a redirect; unknown codes show nothing. */
export function noticeFor(query: unknown): string | null {
  const code = (query as { done?: unknown } | undefined)?.done;
  return typeof code === 'string' ? (NOTICES[code] ?? null) : null;
}

/** A local path with `?done=<code>` set, for the redirect after a form post. */
export function withDone(path: string, done: string): string {
  const url = new URL(path, 'http://local');
  url.searchParams.set('done', done);
  return `${url.pathname}${url.search}`;
}

/** The path parameter of a page or form on one of the user's records. */
export const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

/** The schema of a form post on one of the user's records (`/…/:id/…`); forms stay out of the API document. */
export function recordForm(tags: string[], summary: string): RecordFormSchema;
export function recordForm<B extends TSchema>(tags: string[], summary: string, body: B): RecordFormSchema & { body: B };
export function recordForm(tags: string[], summary: string, body?: TSchema): RecordFormSchema {
  return { hide: true, tags, summary, params: Id, ...(body ? { body } : {}), response: errors(403, 404, 422) };
}

interface RecordFormSchema {
  hide: boolean;
  tags: string[];
  summary: string;
  params: typeof Id;
  response: Record<number, TSchema>;
}
