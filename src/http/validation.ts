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

/**
 * A preValidation hook for a route whose querystring schema declares booleans, or null when it declares
 * none: values spelled as the reference's parser (pydantic) accepts them — `1`, `yes`, `on`, `True`, … —
 * are rewritten to `true`/`false`; anything else is left for validation to refuse.
 */
export function booleanQueryNormalizer(schema: unknown): ((request: FastifyRequest) => Promise<void>) | null {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  const names = Object.keys(properties).filter((name) => properties[name].type === 'boolean');
  if (names.length === 0) return null;
  return async (request) => {
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (typeof value !== 'string') continue;
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) query[name] = 'true';
      else if (FALSE_WORDS.has(word)) query[name] = 'false';
    }
  };
}
