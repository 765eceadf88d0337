import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { isInstant } from '../domain/instant.js';

const addFormats = formats as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated strictly (a number is not a string, as with pydantic), while query strings
 * and path parameters are coerced from their text form. Every error is reported (FastAPI style).
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: true,
    strict: false,
  });
  addFormats(ajv);
  // Request date-times may leave out the offset (UTC) or the time (see domain/instant.ts).
  ajv.addFormat('date-time', { type: 'string', validate: isInstant });
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema as object);

// pydantic's spellings of a boolean (any case); AJV alone takes only `true` and `false`.
const TRUE_WORDS = new Set(['1', 'true', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'f', 'no', 'n', 'off']);
const booleanNames = new WeakMap<object, string[]>();

/** The query parameters a querystring schema declares as booleans (read once per schema). */
function booleanParams(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  let names = booleanNames.get(schema);
  if (!names) {
    const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
    names = Object.entries(properties)
      .filter(([, property]) => property.type === 'boolean')
      .map(([name]) => name);
    booleanNames.set(schema, names);
  }
  return names;
}

/**
 * preValidation: boolean query parameters spelled as the reference's parser (pydantic) accepts them —
 * `1`, `yes`, `on`, `True`, … — are rewritten to `true`/`false` before validation; anything else is
 * left for validation to refuse.
 */
export async function normalizeBooleanQuery(request: FastifyRequest): Promise<void> {
  const names = booleanParams(request.routeOptions.schema?.querystring);
  if (names.length === 0) return;
  const query = request.query as Record<string, unknown>;
  for (const name of names) {
    const value = query[name];
    if (typeof value !== 'string') continue;
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) query[name] = 'true';
    else if (FALSE_WORDS.has(word)) query[name] = 'false';
  }
}
