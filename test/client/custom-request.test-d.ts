import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import * as zClassic from 'zod';
import * as z from 'zod/mini';
import {
  type APIPromise,
  type ChatSendParams,
  Client,
  type CustomRequest,
  type ExtraBody,
  path,
  type StandardSchemaV1,
  type StandardSchemaV1InferOutput,
  type WithResponse,
} from '../../src/index.js';

const client = new Client({ apiKey: 'k', baseUrl: 'https://host/api' });
const get: CustomRequest = { method: 'GET', path: '/v1/projects/proj_1/members' };

describe('client.request types', () => {
  it('answers unknown without a schema', () => {
    expectTypeOf(client.request(get)).toEqualTypeOf<APIPromise<unknown>>();
    expectTypeOf(client.request(get, { timeout: 1_000 })).toEqualTypeOf<APIPromise<unknown>>();
    expectTypeOf(client.request(get).withResponse()).resolves.toEqualTypeOf<
      WithResponse<unknown>
    >();
  });

  it('answers the output a zod/mini, classic zod or valibot schema infers', () => {
    const member = z.object({ id: z.string(), role: z.optional(z.string()) });
    expectTypeOf(client.request(get, { schema: z.array(member) })).resolves.toEqualTypeOf<
      { id: string; role?: string | undefined }[]
    >();
    expectTypeOf(
      client.request(get, { schema: zClassic.object({ count: zClassic.number() }) }),
    ).resolves.toEqualTypeOf<{ count: number }>();
    // The output, not the input: a transform changes the type.
    const lengths = v.pipe(
      v.string(),
      v.transform((text) => text.length),
    );
    expectTypeOf(client.request(get, { schema: lengths })).resolves.toEqualTypeOf<number>();
    expectTypeOf(
      client.request(get, { schema: z.object({ n: z.number() }) }).withResponse(),
    ).resolves.toEqualTypeOf<WithResponse<{ n: number }>>();
  });

  it('takes a schema written to the standard by hand', () => {
    const flag: StandardSchemaV1<unknown, boolean> = {
      '~standard': {
        version: 1,
        vendor: 'mine',
        validate: (value) =>
          typeof value === 'boolean' ? { value } : { issues: [{ message: 'expected a boolean' }] },
      },
    };
    expectTypeOf(client.request(get, { schema: flag })).resolves.toEqualTypeOf<boolean>();
    expectTypeOf<StandardSchemaV1InferOutput<typeof flag>>().toEqualTypeOf<boolean>();
  });

  it('refuses wrong requests at compile time', () => {
    // @ts-expect-error the method is one of the five, in capitals
    void client.request({ method: 'get', path: '/v1/x' });
    // @ts-expect-error the path is required
    void client.request({ method: 'GET' });
    // @ts-expect-error a body is a JSON object
    void client.request({ method: 'POST', path: '/v1/x', body: 'text' });
    // @ts-expect-error query values are strings, numbers, booleans or arrays of them
    void client.request({ method: 'GET', path: '/v1/x', query: { at: new Date() } });
    // @ts-expect-error a schema is a Standard Schema
    void client.request(get, { schema: { parse: (value: unknown) => value } });
    // @ts-expect-error extraBody is for the operations, whose body the SDK builds
    void client.request(get, { extraBody: { a: 1 } });
    expectTypeOf(path`/v1/projects/${'proj_1'}`).toEqualTypeOf<string>();
  });
});

describe('extraBody types', () => {
  it('takes new fields and refuses the ones the params name', () => {
    void client.projects.create({ name: 'n', agentId: 'a' }, { extraBody: { region: 'eu' } });
    void client.chat.send({ projectId: 'p', message: 'm' }, { extraBody: { tone: 'formal' } });
    // @ts-expect-error name is set through the params
    void client.projects.create({ name: 'n', agentId: 'a' }, { extraBody: { name: 'x' } });
    // @ts-expect-error metadata too, even when the params leave it out
    void client.projects.create({ name: 'n', agentId: 'a' }, { extraBody: { metadata: {} } });
    // @ts-expect-error message is set through the params
    void client.chat.send({ projectId: 'p', message: 'm' }, { extraBody: { message: 'x' } });
    // @ts-expect-error projects.get sends no body
    void client.projects.get('p', { extraBody: { expand: true } });
    expectTypeOf<{ tone: string }>().toExtend<ExtraBody<ChatSendParams>>();
    expectTypeOf<{ projectId: string }>().not.toExtend<ExtraBody<ChatSendParams>>();
  });
});
