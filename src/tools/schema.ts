import * as z from 'zod/mini';
import type { ZodStandardSchemaWithJSON } from 'zod/v4/core';
import { notEmpty, validate } from '../core/validation.js';

/**
 * What the JSON Schema of one property should add to what zod derives: a description for the
 * model, and a `type` where zod has none to give (the metadata object and the suggestions array,
 * checked by custom checks, which keep zod's record and array schemas out of browser bundles).
 */
export interface PropertyDoc {
  description: string;
  type?: 'object' | 'array';
}

/**
 * A tool's input or output schema: a Standard Schema (validation) with Standard JSON Schema (its
 * JSON Schema), the form MCP servers take and the agent frameworks can read. Written with zod's
 * copy of the spec's types, so that the published declarations need no other package.
 */
export interface ToolSchema<Value> {
  readonly '~standard': ZodStandardSchemaWithJSON<z.ZodMiniType<Value, unknown>>;
}

/**
 * Turns one of the SDK's zod/mini schemas into the schema a tool declares. Arguments and
 * results are checked by the SDK's own schema through the very `validate` the client runs, so the
 * tools accept exactly what the client accepts and word what they refuse as the client does
 * ("agentID: is not a known field; did you mean agentId?"). zod/mini leaves JSON Schema conversion out of its
 * schemas to stay small, so it is added here, with a description on each property.
 */
export function toolSchema<Schema extends z.ZodMiniType>(
  schema: Schema,
  properties: Readonly<Record<string, PropertyDoc>>,
): { readonly '~standard': ZodStandardSchemaWithJSON<Schema> } {
  const toJsonSchema =
    (io: 'input' | 'output') =>
    ({ target }: { target: string }): Record<string, unknown> => {
      const json = z.toJSONSchema(schema, {
        // The Standard JSON Schema targets ('draft-2020-12', 'draft-07', 'openapi-3.0') are zod's.
        target: target as 'draft-2020-12',
        io,
        // A custom check or a transform has no JSON Schema; `properties` gives those their shape.
        unrepresentable: 'any',
        // The SDK's non-empty check is a refinement (smaller in browsers than z.minLength).
        override: ({ zodSchema, jsonSchema }) => {
          const checks: readonly unknown[] = zodSchema._zod.def.checks ?? [];
          if (checks.includes(notEmpty)) jsonSchema.minLength = 1;
          // A loose object's `additionalProperties: {}` allows any other field, as no keyword at
          // all does; hosts' schema-portability checks (the MCP Inspector's) flag the empty
          // schema as one that constrains nothing, so the default says it instead.
          const extra = jsonSchema.additionalProperties;
          if (isEmptySchema(extra)) delete jsonSchema.additionalProperties;
        },
      }) as Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };
      for (const [name, doc] of Object.entries(properties)) {
        const property = json.properties?.[name];
        if (!property) throw new Error(`toolSchema: the schema has no property "${name}".`);
        Object.assign(property, doc);
      }
      return json;
    };
  return {
    '~standard': {
      ...schema['~standard'],
      // Not zod's: the checks and the JSON Schema are this module's. Hosts that see zod's name
      // convert the schema with zod's own tools instead (the AI SDK does), losing both.
      vendor: 'agentchat',
      validate: (value) => {
        const checked = validate(schema as z.ZodMiniType<z.output<Schema>>, value);
        if (checked.ok) return { value: checked.data };
        // Hosts print each issue as `<path>: <message>`.
        return {
          issues: checked.issues.map(({ path, message }) => ({
            message,
            path: path === '' ? [] : path.split('.'),
          })),
        };
      },
      jsonSchema: { input: toJsonSchema('input'), output: toJsonSchema('output') },
    },
  };
}

/** `{}`: the schema every value passes. */
function isEmptySchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}
