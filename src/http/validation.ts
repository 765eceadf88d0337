import { Ajv } from 'ajv';
import formats from 'ajv-formats';

const addFormats = formats as unknown as (ajv: Ajv) => Ajv;

import type { FastifySchemaCompiler } from 'fastify';

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
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema as object);
