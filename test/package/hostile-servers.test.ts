/**
 * The packed tarball holds against hostile servers as the source does: its ESM and CJS builds,
 * installed from the tarball, refuse a redirect and a body past the limit, over a real socket.
 * The behaviours themselves are proved in test/reliability/hostile-servers*.test.ts.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../helpers/hostile-server.js';
import { consumerPath } from '../helpers/package-consumer.js';

type Sdk = typeof import('../../src/index.js');

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server?.close());

const builds: [string, () => Promise<Sdk>][] = [
  [
    'ESM',
    async () =>
      (await import(
        /* @vite-ignore */ pathToFileURL(consumerPath('node_modules/agentchat/dist/index.js')).href
      )) as Sdk,
  ],
  ['CJS', async () => createRequire(consumerPath('package.json'))('agentchat') as Sdk],
];

describe.each(builds)('the %s build', (_name, load) => {
  it('ends a redirected call with RedirectError, sending nothing to the Location', async () => {
    const sdk = await load();
    server.answer((_req, res) => {
      res.writeHead(307, { location: `${server.baseUrl}/elsewhere` }).end();
    });
    const client = new sdk.Client({ apiKey: 'sk_test_package', baseUrl: server.baseUrl });

    const error = await client.projects.get('proj_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(sdk.RedirectError);
    expect(error).toMatchObject({ status: 307, location: `${server.baseUrl}/elsewhere` });
    expect(server.requests).toBe(1);
  });

  it('ends a call whose body passes maxResponseBytes with ResponseTooLargeError', async () => {
    const sdk = await load();
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(5000));
    });
    const client = new sdk.Client({
      apiKey: 'sk_test_package',
      baseUrl: server.baseUrl,
      maxResponseBytes: 1024,
    });

    const error = await client.projects.get('proj_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(sdk.ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 1024, status: 200 });
    expect(server.requests).toBe(1);
  });
});
