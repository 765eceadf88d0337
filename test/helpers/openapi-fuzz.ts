import fc from 'fast-check';

/**
 * Request generators for the OpenAPI fuzz test: from an operation of the app's own OpenAPI document,
 * requests that are mostly shaped like what the schema asks for, with every value liable to be swapped
 * for something hostile (NUL, lone surrogates, huge strings, wrong types), and bodies that are
 * malformed, nested too deep or sent with the wrong content type.
 */

export type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required: boolean; schema: Schema }>;
  body: Schema | null;
}

export interface FuzzRequest {
  method: string;
  url: string;
  contentType: string | null;
  payload: string | Buffer | undefined;
}

interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: unknown[]; requestBody?: { content?: Record<string, unknown> } }>
  >;
  components?: { schemas?: Record<string, Schema> };
}

/** Every operation of the document, with `$ref`s resolved. */
export function operationsOf(doc: Document): Operation[] {
  const resolve = (schema: unknown): Schema => {
    let current = (schema ?? {}) as Schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
      const name = current.$ref.split('/').pop() ?? '';
      current = doc.components?.schemas?.[name] ?? {};
    }
    return current;
  };
  const deref = (schema: unknown, depth = 0): Schema => {
    const current = resolve(schema);
    if (depth > 8) return current;
    const out: Schema = { ...current };
    for (const key of ['items', 'additionalProperties'])
      if (typeof current[key] === 'object') out[key] = deref(current[key], depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(current[key])) out[key] = (current[key] as unknown[]).map((s) => deref(s, depth + 1));
    if (current.properties)
      out.properties = Object.fromEntries(
        Object.entries(current.properties as Record<string, unknown>).map(([k, s]) => [k, deref(s, depth + 1)]),
      );
    return out;
  };
  const out: Operation[] = [];
  for (const [path, operations] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = (operation.parameters ?? []).map((p) => {
        const param = p as { name: string; in: string; required?: boolean; schema?: unknown };
        return { name: param.name, in: param.in, required: param.required === true, schema: deref(param.schema) };
      });
      const json = operation.requestBody?.content?.['application/json'] as { schema?: unknown } | undefined;
      out.push({ method: method.toUpperCase(), path, parameters, body: json ? deref(json.schema) : null });
    }
  return out;
}

/** Strings chosen to break things: control characters, broken Unicode, numbers and dates in disguise. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\ud83d\ude00',
    '\u202e\u0301',
    '%00',
    '../../etc/passwd',
    'null',
    'true',
    '-1',
    '1e400',
    'NaN',
    '9007199254740993',
    "' OR 1=1 --",
    '\\',
    '"',
    '{}',
    '__proto__',
    'constructor',
    '2026-01-01T00:00:00Z',
    '0000-00-00T99:99:99Z',
    '+275760-09-13T00:00:00.001Z',
    'SPEAKER_99',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

/** Long text: past every field's limit, and past the body limit (2 MiB). */
const hugeString = fc.constantFrom(2_000, 100_001, 2_100_000).map((n) => 'word '.repeat(Math.ceil(n / 5)).slice(0, n));

/** A hostile string, rarely a huge one. */
const hostileString = fc.oneof({ weight: 12, arbitrary: nastyString }, { weight: 1, arbitrary: hugeString });

/** Any JSON value, shallow. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, -0, true, false, null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.oneof(fc.integer(), nastyString), { maxLength: 3 }),
  fc.dictionary(nastyString, fc.oneof(fc.integer(), nastyString, fc.constant(null)), { maxKeys: 3 }),
);

const bound = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);

function stringFor(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.format === 'date-time')
    return fc.oneof(
      fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom('2026-01-02', '2026-01-02T03:04:05', 'yesterday', '2026-13-45T00:00:00Z'),
    );
  const min = bound(schema.minLength, 0);
  const max = bound(schema.maxLength, 60);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 60) }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('x'.repeat(Math.min(max, 300_000)), 'x'.repeat(Math.min(max + 1, 300_000))),
    },
  );
}

function numberFor(schema: Schema, integer: boolean): fc.Arbitrary<unknown> {
  const min = bound(schema.minimum, -1_000_000);
  const max = bound(schema.maximum, 1_000_000);
  const inside = integer
    ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 4, arbitrary: inside }, { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 1.5) });
}

/** A value shaped by `schema`; at every level, sometimes anything at all instead. */
export function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedValue(schema, depth);
  const arbitrary = schema.nullable === true ? fc.oneof(shaped, fc.constant(null)) : shaped;
  return fc.oneof({ weight: 6, arbitrary }, { weight: 1, arbitrary: anyValue });
}

function shapedValue(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (typeof schema.const !== 'undefined') return fc.constant(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants?.length) return fc.oneof(...variants.map((s) => valueFor(s, depth + 1)));
  if (depth > 6) return anyValue;
  switch (schema.type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = valueFor((schema.items as Schema) ?? {}, depth + 1);
      const most = Math.min(bound(schema.maxItems, 4), 4);
      return fc.oneof(
        { weight: 5, arbitrary: fc.array(items, { minLength: bound(schema.minItems, 0), maxLength: most }) },
        { weight: 1, arbitrary: fc.array(items, { minLength: most + 1, maxLength: bound(schema.maxItems, 4) + 1 }) },
      );
    }
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0 && schema.type !== 'object') return anyValue;
      const required = (schema.required ?? []) as string[];
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valueFor(s, depth + 1)])),
        { requiredKeys: required.filter((k) => k in properties) },
      );
      return fc
        .tuple(record, fc.dictionary(nastyString, anyValue, { maxKeys: 2 }))
        .map(([known, extra]) => ({ ...extra, ...known }));
    }
  }
}

/** Percent-encoding (a lone surrogate goes as U+FFFD, as any client would send it). */
const encode = (value: string) => encodeURIComponent((value as string & { toWellFormed(): string }).toWellFormed());

/** Raw segments no encoder produces: broken escapes and bytes that are not UTF-8. */
const rawSegment = fc.constantFrom('%00', '%ED%A0%80', '%FF', '%', '%zz', '%C0%AF', 'a%00b');

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function pathValue(schema: Schema, known: string | undefined): fc.Arbitrary<string> {
  const generated = fc.oneof(valueFor(schema).map(asText), nastyString, fc.constant('x'.repeat(600)));
  const encoded = generated.map((v) => encode(v) || 'x');
  return known
    ? fc.oneof({ weight: 3, arbitrary: fc.constant(encode(known)) }, { weight: 3, arbitrary: encoded }, rawSegment)
    : fc.oneof({ weight: 5, arbitrary: encoded }, rawSegment);
}

function queryFor(op: Operation, known: Record<string, string>): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const pairs = params.map((p) => {
    const value = fc.oneof(
      { weight: 2, arbitrary: known[p.name] ? fc.constant(known[p.name]) : valueFor(p.schema).map(asText) },
      { weight: 3, arbitrary: valueFor(p.schema).map(asText) },
      { weight: 1, arbitrary: nastyString },
    );
    const encoded = fc.oneof({ weight: 6, arbitrary: value.map(encode) }, rawSegment);
    const entry = fc.array(encoded, { minLength: 1, maxLength: 2 }).map((vs) => vs.map((v) => `${p.name}=${v}`));
    return fc.option(entry, { freq: p.required ? 10 : 3 }).map((e) => e ?? []);
  });
  const extra = fc
    .array(fc.tuple(nastyString, nastyString), { maxLength: 2 })
    .map((kv) => kv.map(([k, v]) => `${encode(k) || 'k'}=${encode(v)}`));
  const structured = fc.tuple(fc.tuple(...pairs), extra).map(([ps, ex]) => [...ps.flat(), ...ex].join('&'));
  return fc.oneof(
    { weight: 8, arbitrary: structured },
    { weight: 1, arbitrary: fc.constantFrom('&&=&', '%ff=1', 'a[b]=1&a[c][d]=2') },
  );
}

function deepJson(levels: number, kind: 'object' | 'array'): string {
  return kind === 'array'
    ? `${'['.repeat(levels)}${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** A body: mostly JSON shaped by the schema, else broken JSON, deep JSON, or another content type. */
function bodyFor(schema: Schema | null): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'payload'>> {
  const json = (payload: string) => ({ contentType: 'application/json', payload });
  return fc.oneof(
    { weight: 8, arbitrary: valueFor(schema ?? {}).map((v) => json(JSON.stringify(v) ?? 'null')) },
    { weight: 1, arbitrary: anyValue.map((v) => json(JSON.stringify(v) ?? 'null')) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"a":', '[1,]', 'nul', '"\\u12"', '{"a":"\\ud800"}', '{"a":1}garbage', '\u0000', '')
        .map(json),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(60, 65, 1_000, 5_000, 100_000), fc.constantFrom('object' as const, 'array' as const))
        .map(([levels, kind]) => json(deepJson(levels, kind))),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constant({ contentType: 'text/plain', payload: '{"text":"hi"}' }),
        fc.constant({ contentType: 'application/x-www-form-urlencoded', payload: 'text=hi&a=%00' }),
        fc.constant({ contentType: 'multipart/form-data; boundary=x', payload: '--x\r\n\r\nhi\r\n--x--' }),
        fc.constant({ contentType: 'application/json; charset=latin1', payload: '{"a":"\u00e9"}' }),
        fc.constant({ contentType: 'application/vnd.api+json', payload: '{"a":1}' }),
        fc.constant({ contentType: null, payload: '{"a":1}' }),
        fc
          .uint8Array({ maxLength: 64 })
          .map((b) => ({ contentType: 'application/octet-stream', payload: Buffer.from(b) })),
        fc.uint8Array({ maxLength: 64 }).map((b) => ({ contentType: 'application/json', payload: Buffer.from(b) })),
        fc.uint8Array({ maxLength: 64 }).map((b) => ({ contentType: 'audio/wav', payload: Buffer.from(b) })),
      ),
    },
  );
}

/** Requests for `op`; `known` holds real values (ids, uid) that path and query parameters sometimes use. */
export function requestsFor(op: Operation, known: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = fc
    .tuple(...pathParams.map((p) => pathValue(p.schema, known[p.name]).map((v) => [p.name, v] as const)))
    .map((values) => values.reduce((url, [name, v]) => url.replace(`{${name}}`, v), op.path));
  const sendsBody = op.body !== null || op.method === 'POST' || op.method === 'PATCH' || op.method === 'PUT';
  const body = sendsBody
    ? fc.option(bodyFor(op.body), { freq: 12 }).map((b) => b ?? { contentType: null, payload: undefined })
    : fc.oneof(
        { weight: 9, arbitrary: fc.constant({ contentType: null, payload: undefined }) },
        { weight: 1, arbitrary: bodyFor(null) },
      );
  return fc.tuple(path, queryFor(op, known), body).map(([url, query, b]) => ({
    method: op.method,
    url: query ? `${url}?${query}` : url,
    contentType: b.contentType,
    payload: b.payload as string | Buffer | undefined,
  }));
}
