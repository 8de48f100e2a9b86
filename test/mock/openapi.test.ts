import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/testing/handlers/routing.js';

const source = readFile(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8');

describe('docs/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();

    expect(await validator.validate(await source)).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('describes every endpoint the mock serves, and a CORS preflight for each path', async () => {
    const validator = new Validator();
    await validator.validate(await source);
    const { paths } = validator.specification as { paths: Record<string, Record<string, unknown>> };

    const served = endpoints.map(
      ({ method, path }) => `${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`,
    );
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method} ${path}`),
    );
    const preflights = Object.keys(paths).map((path) => `options ${path}`);
    expect(documented.sort()).toEqual([...served, ...preflights].sort());
  });
});
