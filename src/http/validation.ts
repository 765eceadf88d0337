import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
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
