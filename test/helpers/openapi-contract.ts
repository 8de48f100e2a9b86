/**
 * Checks answers of the mock against docs/openapi.yaml: the document is validated against the
 * OpenAPI 3.1 schema (@seriousme/openapi-schema-validator) and its references resolved; each
 * answer is then looked up by method, path and status, and its headers and body are validated
 * against the schemas found there with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect).
 */
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

/** One request and the answer it got, as the scenarios saw it. Plain data, so a browser can send it. */
export interface Exchange {
  method: string;
  /** The path below the base URL, still percent-encoded, e.g. `/v1/projects/proj_1`. */
  path: string;
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  body: string;
}

interface Schema {
  [keyword: string]: unknown;
}
interface HeaderObject {
  required?: boolean;
  schema: Schema;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: Schema }>;
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  components: { schemas: Record<string, Schema>; headers: Record<string, HeaderObject> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let loaded: Promise<(exchange: Exchange) => string[]> | undefined;

/**
 * What is wrong with each exchange by docs/openapi.yaml, one line per problem; empty when all
 * conform.
 */
export async function contractProblems(exchanges: readonly Exchange[]): Promise<string[]> {
  loaded ??= loadContract();
  const check = await loaded;
  return exchanges.flatMap(check);
}

async function loadContract(): Promise<(exchange: Exchange) => string[]> {
  const validator = new Validator();
  const source = await readFile(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8');
  const result = await validator.validate(source);
  if (!result.valid) {
    throw new Error(`docs/openapi.yaml is not valid OpenAPI: ${JSON.stringify(result.errors)}`);
  }
  const document = validator.resolveRefs() as unknown as Document;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // ajv-formats is CommonJS with its plugin on `default`.
  ajvFormats.default(ajv);
  const compiled = new Map<Schema, ReturnType<typeof ajv.compile>>();
  const validate = (schema: Schema, value: unknown, where: string): string[] => {
    let check = compiled.get(schema);
    if (!check) {
      check = ajv.compile(schema);
      compiled.set(schema, check);
    }
    return check(value) ? [] : [`${where}: ${ajv.errorsText(check.errors)}`];
  };

  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  return (exchange) => {
    const label = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    const template = templates.find(({ pattern }) => pattern.test(exchange.path))?.template;
    const operation = template
      ? document.paths[template]?.[exchange.method.toLowerCase()]
      : undefined;

    if (!operation) {
      // Outside the document's operations, the service may only refuse: 404 for an unknown
      // path, 405 for a method the path does not take, with the standard error body.
      const expected = template && METHODS.includes(exchange.method.toLowerCase()) ? 405 : 404;
      return [
        ...(exchange.status === expected
          ? []
          : [`${label}: expected ${expected} outside the document`]),
        ...checkHeaders({ 'x-request-id': document.components.headers.RequestId as HeaderObject }),
        ...checkBody({
          'application/json': { schema: document.components.schemas.Error as Schema },
        }),
      ];
    }

    const { responses } = operation;
    const status = String(exchange.status);
    const response = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!response) return [`${label}: status not documented`];
    return [...checkHeaders(response.headers ?? {}), ...checkBody(response.content)];

    function checkHeaders(headers: Record<string, HeaderObject>): string[] {
      return Object.entries(headers).flatMap(([name, header]) => {
        const value = exchange.headers[name.toLowerCase()];
        if (value === undefined) return header.required ? [`${label}: header ${name} missing`] : [];
        return validate(header.schema, value, `${label}: header ${name}`);
      });
    }

    function checkBody(content: ResponseObject['content']): string[] {
      // The answer to a HEAD never has content (RFC 9110 section 9.3.2), whatever a GET's has.
      if (exchange.method === 'HEAD') {
        return exchange.body === '' ? [] : [`${label}: a body in the answer to a HEAD`];
      }
      if (!content)
        return exchange.body === '' ? [] : [`${label}: a body where none is documented`];
      const mediaType = exchange.headers['content-type']?.split(';')[0]?.trim() ?? '';
      const media = content[mediaType];
      if (!media) return [`${label}: content type ${JSON.stringify(mediaType)} not documented`];
      let body: unknown;
      try {
        body = JSON.parse(exchange.body);
      } catch {
        return [`${label}: body is not JSON`];
      }
      return validate(media.schema, body, `${label}: body`);
    }
  };
}
