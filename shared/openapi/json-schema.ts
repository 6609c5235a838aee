/**
 * valibot schemas as the JSON Schema (2020-12) of an OpenAPI 3.1 document. Requests are shown as
 * a client writes them (valibot's input type: up to the first transformation); responses as the
 * API answers them, each named response schema once under `components.schemas`.
 */
import * as v from 'valibot';
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';

/**
 * Rules JSON Schema cannot say: trimming, custom checks (e.g. "exactly one of"), a phone
 * number's parsing. Descriptions say them in words; the API enforces them. Any other action that
 * cannot be converted fails the generator, so nothing is left out silently.
 */
const UNSAYABLE_ACTIONS = ['trim', 'check', 'partial_check', 'raw_transform'];

const base = { target: 'draft-2020-12', errorMode: 'throw', ignoreActions: UNSAYABLE_ACTIONS } satisfies ConversionConfig;

/** The keys a standalone conversion adds that a schema inside a document must not carry. */
function embedded({ $schema: _dialect, $defs: _definitions, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

/** A request body or path parameter as the client sends it. */
export const requestSchema = (schema: v.GenericSchema): JsonSchema => embedded(toJsonSchema(schema, { ...base, typeMode: 'input' }));

/**
 * A query parameter as the handler reads it: query values are text, but a parameter that the
 * schema turns into a number is an integer to the client. Its default is the schema's own
 * default as parsed (`"50"` becomes 50).
 */
export function queryParameterSchema(schema: v.GenericSchema): JsonSchema {
  const converted = embedded(toJsonSchema(schema, { ...base, typeMode: 'output' }));
  return v.getDefault(schema) === undefined ? converted : { ...converted, default: v.parse(schema, undefined) as JsonSchema['default'] };
}

/** Response schemas by component name: every schema `{ name: schema }` given is written once and referred to by name. */
export function responseConverter(named: Record<string, v.GenericSchema>) {
  const config = {
    ...base,
    typeMode: 'output',
    definitions: named,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  } satisfies ConversionConfig;
  return {
    components: toJsonSchemaDefs(named, config),
    /** A response schema, its named parts by reference. */
    convert: (schema: v.GenericSchema): JsonSchema => embedded(toJsonSchema(schema, config)),
  };
}
