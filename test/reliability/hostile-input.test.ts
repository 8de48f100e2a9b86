/**
 * Property: whatever a caller passes to `projects.create`, `projects.get` or `chat.send`, the call
 * either sends it faithfully (the id as exactly one path segment, the body as given) or refuses
 * it with `RequestValidationError` and sends nothing. Nothing else: no TypeError or URIError, no
 * synchronous throw, no change to `Object.prototype`.
 */
import * as fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentChatError, APIError, Client, RequestValidationError } from '../../src/index.js';
import { createMockService, type RecordedRequest, strictListen } from '../../src/testing/index.js';
import { leaksOf, propertyRuns } from '../helpers/reliability.js';

const service = createMockService();
const server = setupServer(...service.handlers);
const client = new Client({ apiKey: 'sk_test_hostile', baseUrl: service.baseUrl, maxRetries: 0 });
const basePath = new URL(service.baseUrl).pathname;

// ---------------------------------------------------------------------------------------------
// Hostile values

/** Any UTF-16 code unit, lone surrogates included (fast-check's own units never produce those). */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

/** Pieces that mean something to URLs, paths, terminals or parsers. */
const trickyPiece = fc.constantFrom(
  '/',
  '?',
  '#',
  '%',
  '%2F',
  '%2e%2e',
  '%zz',
  '.',
  '..',
  '../',
  '/../admin',
  '\\',
  ' ',
  '+',
  '&',
  '=',
  ';',
  '\u0000',
  '\n',
  '\r\n',
  '\t',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '👍🏽',
  'e\u0301',
  '\u202e',
  '\ufeff',
  '\u2028',
  'ﬀ',
  'İ',
  '__proto__',
  'constructor',
  'proj_1',
);

const oddString = fc.oneof(
  {
    arbitrary: fc.array(trickyPiece, { minLength: 1, maxLength: 6 }).map((p) => p.join('')),
    weight: 4,
  },
  { arbitrary: fc.string({ unit: codeUnit, maxLength: 12 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 2 },
  { arbitrary: fc.constantFrom('.', '..', ''), weight: 1 },
  { arbitrary: fc.constant('%/?#'.repeat(2_500)), weight: 1 },
);

/** As `oddString`, plus a megabyte: for bodies, where size is the service's concern alone. */
const oddText = fc.oneof(
  { arbitrary: oddString, weight: 9 },
  { arbitrary: fc.constant('x'.repeat(1_000_000)), weight: 1 },
);

/** Values of every type but string. */
const notAString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.constant(Symbol('id')),
  fc.constant(() => 'proj_1'),
  fc.constant(new String('proj_1')),
  fc.constant(new Date(0)),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);

/** Anything a caller might pass where a string belongs. */
const anyValue = fc.oneof(
  { arbitrary: oddString, weight: 3 },
  { arbitrary: notAString, weight: 1 },
);
const anyText = fc.oneof({ arbitrary: oddText, weight: 3 }, { arbitrary: notAString, weight: 1 });

/** JSON texts whose parse gives own keys that name prototypes, at the top and nested. */
const pollutingJson = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":{"__proto__":{"polluted":true}},"b":[{"__proto__":null}]}',
  '{"__proto__":[],"prototype":1,"toString":"x","hasOwnProperty":false,"valueOf":null}',
  '{"nested":{"constructor":{"prototype":{"polluted":true}},"__proto__":{"isAdmin":true}}}',
);

/** Objects JSON carries faithfully, with odd keys and values. */
const jsonObject = fc.oneof(
  pollutingJson.map((text) => JSON.parse(text) as Record<string, unknown>),
  fc.dictionary(
    oddString.filter((key) => key.length < 100),
    fc.jsonValue({ maxDepth: 3 }),
    {
      maxKeys: 4,
    },
  ),
  fc.constant(Object.assign(Object.create(null) as Record<string, unknown>, { tier: 2 })),
);

/** Metadata JSON cannot carry as given: it must be refused, never silently changed. */
const notJsonMetadata = fc.oneof(
  fc.constant([]),
  fc.constant(new Date(0)),
  fc.constant(new Map([['a', 1]])),
  fc.constant({ when: new Date(0) }),
  fc.constant({ n: Number.NaN }),
  fc.constant({ n: Number.POSITIVE_INFINITY }),
  fc.constant({ n: 1n }),
  fc.constant({ f: () => 1 }),
  fc.constant({ u: undefined }),
  fc.constant({ s: Symbol('s') }),
  fc.constant({ list: [1, undefined, 3] }),
  fc.constant({ sparse: Object.assign([1], { 2: 3 }) }),
  fc.constant({ named: Object.assign([1, 2], { label: 'x' }) }),
  fc.constant(
    new (class Settings {
      tier = 2;
    })(),
  ),
  fc.constant(
    (() => {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      return cycle;
    })(),
  ),
);

const metadata = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: jsonObject, weight: 4 },
  { arbitrary: notJsonMetadata, weight: 2 },
  { arbitrary: notAString, weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// What the contract allows through

const surrogate = /\p{Cs}/u;

/** A string that can go into a path segment as itself. */
function isValidId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value !== '' &&
    value !== '.' &&
    value !== '..' &&
    !surrogate.test(value)
  );
}

/** RFC 9110 token: what a header name may be. */
const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 field-value characters: tab, space, visible ASCII and obs-text (U+0080 to U+00FF). */
const fieldValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A header value as fetch puts it on the wire: leading and trailing spaces and tabs dropped. */
function normalizedHeader(value: string): string {
  return value.replace(/^[\t ]+|[\t ]+$/g, '');
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** True for metadata that JSON carries exactly as given. */
function isJsonObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  try {
    return (
      JSON.stringify(JSON.parse(JSON.stringify(value))) === JSON.stringify(value) &&
      carriesExactly(value)
    );
  } catch {
    return false;
  }
}

/** No value JSON would drop or rewrite on the way: undefined, functions, symbols, non-finite numbers. */
function carriesExactly(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) {
    // Holes become null and named properties vanish.
    const dense = Object.keys(value).every((key, index) => key === String(index));
    return dense && Object.keys(value).length === value.length && value.every(carriesExactly);
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    return (
      (prototype === Object.prototype || prototype === null) &&
      Object.values(value).every(carriesExactly)
    );
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Checks

const prototypeKeys = Reflect.ownKeys(Object.prototype);

/** Calls `send`, then checks the outcome is one of the two allowed and nothing else happened. */
async function expectSentOrRefused(
  send: () => Promise<unknown>,
  shouldSend: boolean,
  checkRequest: (request: RecordedRequest) => void,
): Promise<void> {
  service.reset();
  let promise: Promise<unknown> | undefined;
  expect(() => {
    promise = send();
  }, 'a call never throws synchronously').not.toThrow();
  const outcome = await (promise as Promise<unknown>).then(
    () => ({ ok: true as const, error: undefined }),
    (error: unknown) => ({ ok: false as const, error }),
  );

  if (!shouldSend) {
    expect(outcome.error, 'refused').toBeInstanceOf(RequestValidationError);
    expect(service.requestLog(), 'nothing sent').toEqual([]);
  } else {
    expect(service.requestLog()).toHaveLength(1);
    checkRequest(service.requestLog()[0] as RecordedRequest);
    // The service may refuse what it got (no such project); that is an APIError, never a crash.
    if (!outcome.ok) expect(outcome.error).toBeInstanceOf(APIError);
  }
  if (!outcome.ok) expect(outcome.error).toBeInstanceOf(AgentChatError);

  expect(Reflect.ownKeys(Object.prototype)).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
}

/**
 * The body the service received is `expected`, compared as JSON text, so that own `__proto__` keys
 * and lone surrogates compare exactly. The mock's log keeps a body over 16 KiB as its first
 * 16 KiB of text (`bodyTruncated`), which must then begin the expected text; its last character
 * is left out, as the cut may have split a surrogate pair.
 */
function expectBody(request: RecordedRequest, expected: unknown): void {
  const text = JSON.stringify(expected);
  if (request.bodyTruncated) {
    expect(text.startsWith((request.body as string).slice(0, -1))).toBe(true);
  } else {
    expect(JSON.stringify(request.body)).toBe(text);
  }
}

/** The id reached the service as one percent-encoded segment that decodes to itself. */
function expectIdSegment(request: RecordedRequest, id: string, suffix: string): void {
  const prefix = `${basePath}/v1/projects/`;
  expect(request.path.startsWith(prefix)).toBe(true);
  expect(request.path.endsWith(suffix)).toBe(true);
  const segment = request.path.slice(prefix.length, request.path.length - suffix.length);
  expect(segment).not.toMatch(/[/?#]/);
  expect(decodeURIComponent(segment)).toBe(id);
  expect(new URL(request.url).search).toBe('');
  expect(new URL(request.url).hash).toBe('');
}

describe('hostile input', () => {
  beforeAll(() => strictListen(server));
  afterEach(() => service.reset());
  afterAll(() => server.close());

  it('projects.get sends any id as one encoded segment, or refuses it', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, async (id) => {
        await expectSentOrRefused(
          () => client.projects.get(id as string),
          isValidId(id),
          (request) => {
            expect(request.method).toBe('GET');
            expectIdSegment(request, id as string, '');
          },
        );
      }),
      {
        numRuns: propertyRuns(150),
        examples: [
          ['\ud800'],
          ['a\udfffb'],
          ['.'],
          ['..'],
          [''],
          ['a/b?c#d%e'],
          ['../admin'],
          ['%2e%2e'],
          ['proj_1/chat'],
          [42],
          [null],
        ],
      },
    );
  });

  it('chat.send sends any projectId and message faithfully, or refuses them', async () => {
    const params = fc.oneof(
      { arbitrary: fc.record({ projectId: anyValue, message: anyText }), weight: 5 },
      {
        arbitrary: fc.record({ projectId: anyValue, message: anyValue, extra: anyValue }),
        weight: 1,
      },
      { arbitrary: notAString, weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(params, async (input) => {
        const fields = input as { projectId?: unknown; message?: unknown };
        const shouldSend =
          typeof input === 'object' &&
          input !== null &&
          !Array.isArray(input) &&
          Object.keys(input).every((key) => key === 'projectId' || key === 'message') &&
          isValidId(fields.projectId) &&
          isNonEmptyString(fields.message);
        await expectSentOrRefused(
          () => client.chat.send(input as never),
          shouldSend,
          (request) => {
            expect(request.method).toBe('POST');
            expectIdSegment(request, fields.projectId as string, '/chat');
            expectBody(request, { message: fields.message });
          },
        );
      }),
      {
        numRuns: propertyRuns(150),
        examples: [
          [{ projectId: '\ud83d', message: 'hi' }],
          [{ projectId: '../../v1/projects', message: 'hi' }],
          [{ projectId: 'p', message: '\udc00 lone' }],
          [{ projectId: 'p', message: 'x'.repeat(1_000_000) }],
          [{ projectId: 'p', message: '' }],
        ],
      },
    );
  });

  it('projects.create sends any name, agentId and metadata faithfully, or refuses them', async () => {
    const params = fc.oneof(
      {
        arbitrary: fc.record(
          { name: anyText, agentId: anyValue, metadata },
          { requiredKeys: ['name', 'agentId'] },
        ),
        weight: 6,
      },
      // Own keys that name prototypes at the top level, from JSON.parse as a web handler would.
      {
        arbitrary: fc
          .constantFrom(
            '{"name":"n","agentId":"a","__proto__":{"polluted":true}}',
            '{"name":"n","agentId":"a","constructor":{"prototype":{"polluted":true}}}',
            '{"name":"n","agentId":"a","metadata":{"__proto__":{"polluted":true}}}',
          )
          .map((text) => JSON.parse(text) as unknown),
        weight: 1,
      },
      { arbitrary: notAString, weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(params, async (input) => {
        const fields = input as { name?: unknown; agentId?: unknown; metadata?: unknown };
        const shouldSend =
          typeof input === 'object' &&
          input !== null &&
          !Array.isArray(input) &&
          Object.keys(input).every((key) => ['name', 'agentId', 'metadata'].includes(key)) &&
          isNonEmptyString(fields.name) &&
          isNonEmptyString(fields.agentId) &&
          (fields.metadata === undefined || isJsonObject(fields.metadata));
        await expectSentOrRefused(
          () => client.projects.create(input as never),
          shouldSend,
          (request) => {
            expect(request.method).toBe('POST');
            expect(request.path).toBe(`${basePath}/v1/projects`);
            const expected =
              fields.metadata === undefined
                ? { name: fields.name, agentId: fields.agentId }
                : { name: fields.name, agentId: fields.agentId, metadata: fields.metadata };
            expectBody(request, expected);
          },
        );
      }),
      {
        numRuns: propertyRuns(150),
        examples: [
          [{ name: 'n', agentId: 'a', metadata: JSON.parse('{"__proto__":{"polluted":true}}') }],
          [{ name: 'n', agentId: 'a', metadata: { sparse: Object.assign([1], { 2: 3 }) } }],
          [{ name: 'n', agentId: 'a', metadata: { named: Object.assign([1], { label: 'x' }) } }],
          [{ name: '\ud800', agentId: 'a\udfff' }],
          [JSON.parse('{"name":"n","agentId":"a","__proto__":{"polluted":true}}')],
        ],
      },
    );
  });
  it('headers, Idempotency-Key and API key are sent as given or refused, never half-sent', async () => {
    const headerName = fc.oneof(
      fc.constantFrom('x-trace', 'x-tenant', 'X-Mixed-Case', 'x_under', "x-!#$%&'*+.^`|~"),
      fc.string({ unit: codeUnit, minLength: 1, maxLength: 8 }).map((name) => `x-${name}`),
    );
    const headerText = fc.oneof(
      fc.string({ unit: codeUnit, maxLength: 12 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
      fc.constantFrom('caf\u00e9', ' padded\t', 'a\r\nInjected: 1', 'nul\u0000', '€', '\ud800'),
    );
    const setting = fc.record({
      // Lower-case names only, so two spellings of one name never merge into one header.
      headers: fc.dictionary(
        headerName.map((name) => name.toLowerCase()),
        headerText,
        { maxKeys: 3 },
      ),
      idempotencyKey: fc.option(headerText, { nil: undefined }),
      apiKey: fc.oneof(
        headerText.map((text) => `sk_test_${text}`),
        fc.stringMatching(/^sk_live_[A-Za-z0-9]{20}$/),
      ),
      keyAsFunction: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(setting, async ({ headers, idempotencyKey, apiKey, keyAsFunction }) => {
        // Surrounding whitespace is refused too: fetch would trim it and send another key.
        const keyIsValid = fieldValue.test(apiKey) && apiKey.trim() === apiKey;
        let keyed: Client;
        try {
          keyed = new Client({
            apiKey: keyAsFunction ? () => apiKey : apiKey,
            baseUrl: service.baseUrl,
            maxRetries: 2,
          });
        } catch (error) {
          // Only a key given as a string is checked up front; it never shows in the error.
          expect(keyAsFunction || keyIsValid).toBe(false);
          expect(error).toBeInstanceOf(AgentChatError);
          expect(leaksOf(error, apiKey)).toEqual([]);
          return;
        }
        // A key given as a string that fetch could not send is refused at construction.
        if (!keyAsFunction) expect(keyIsValid).toBe(true);
        const optionsValid =
          Object.entries(headers).every(
            ([name, value]) => headerToken.test(name) && fieldValue.test(value),
          ) &&
          (idempotencyKey === undefined ||
            (idempotencyKey !== '' && fieldValue.test(idempotencyKey)));
        const options = idempotencyKey === undefined ? { headers } : { headers, idempotencyKey };

        service.reset();
        const outcome = await keyed.chat
          .send({ projectId: 'proj_none', message: 'hi' }, options)
          .then(
            () => undefined,
            (error: unknown) => error,
          );

        expect(outcome).toBeInstanceOf(AgentChatError);
        expect(leaksOf(outcome, apiKey)).toEqual([]);
        if (!optionsValid || !keyIsValid) {
          expect(service.requestLog()).toEqual([]);
          if (!optionsValid) expect(outcome).toBeInstanceOf(RequestValidationError);
          return;
        }
        // Sent once (the project does not exist: 404, not retried), every header as given; twice
        // when the service refused the key (a padded one) and a function gave it: the 401 replay.
        expect(outcome).toBeInstanceOf(APIError);
        const replayed = keyAsFunction && (outcome as APIError).status === 401;
        expect(service.requestLog()).toHaveLength(replayed ? 2 : 1);
        const sent = (service.requestLog()[0] as RecordedRequest).headers;
        expect(sent.authorization).toBe(normalizedHeader(`Bearer ${apiKey}`));
        if (idempotencyKey !== undefined) {
          expect(sent['idempotency-key']).toBe(normalizedHeader(idempotencyKey));
        }
        for (const [name, value] of Object.entries(headers)) {
          if (!['authorization', 'idempotency-key', 'user-agent', 'content-type'].includes(name)) {
            expect(sent[name]).toBe(normalizedHeader(value));
          }
        }
      }),
      {
        numRuns: propertyRuns(150),
        examples: [
          [
            {
              headers: { 'x-a': '€' },
              idempotencyKey: undefined,
              apiKey: 'sk_live_ok_key_123456',
              keyAsFunction: false,
            },
          ],
          [
            {
              headers: { 'x-a': 'a\u0001b' },
              idempotencyKey: undefined,
              apiKey: 'sk_live_ok_key_123456',
              keyAsFunction: false,
            },
          ],
          [
            {
              headers: {},
              idempotencyKey: '\u00e9t\u00e9-€',
              apiKey: 'sk_live_ok_key_123456',
              keyAsFunction: false,
            },
          ],
          [
            {
              headers: {},
              idempotencyKey: undefined,
              apiKey: 'sk_test_€_secret_part',
              keyAsFunction: true,
            },
          ],
          [
            {
              headers: {},
              idempotencyKey: undefined,
              apiKey: 'sk_test_line\nbreak_secret',
              keyAsFunction: true,
            },
          ],
        ],
      },
    );
  });
  it('reads back prototype-named metadata keys without ever setting a prototype', async () => {
    const metadata = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"nested":{"__proto__":{"isAdmin":true}}}',
    ) as Record<string, unknown>;
    const { id } = await client.projects.create({ name: 'n', agentId: 'a', metadata });

    const project = await client.projects.get(id);

    // The service stored all three keys as given.
    expect(Object.keys(service.projects()[0]?.metadata ?? {})).toEqual([
      '__proto__',
      'constructor',
      'nested',
    ]);
    // Reading drops a top-level "__proto__" rather than let it become a prototype when copied;
    // the other keys, nested ones included, come back as plain data.
    expect(Object.getPrototypeOf(project.metadata)).toBe(Object.prototype);
    expect(Object.keys(project.metadata)).toEqual(['constructor', 'nested']);
    expect(JSON.stringify(project.metadata.nested)).toBe('{"__proto__":{"isAdmin":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
