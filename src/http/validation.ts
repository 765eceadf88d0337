import { Ajv, type ValidateFunction } from 'ajv';
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

type LazyValidator = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => boolean) & {
  errors?: ValidateFunction['errors'];
  schemaEnv?: unknown;
};

/**
 * Each schema is compiled by its route's first request, not when the server starts: compiling every
 * route's schemas up front was a third of the start's CPU time (docs/deployment.md).
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing;
  let compiled: ValidateFunction | undefined;
  const validate: LazyValidator = (data, context) => {
    compiled ??= ajv.compile(schema as object);
    const valid = compiled(data, context);
    validate.errors = compiled.errors;
    return valid;
  };
  // Fastify hands the parent object to a validator that has `schemaEnv` (as Ajv's do), so that
  // coercion and defaults can replace a whole query string or body: the compiled one gets it too.
  validate.schemaEnv = true;
  return validate;
};

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
