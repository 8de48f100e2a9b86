/** The version users see at run time (User-Agent, `VERSION`) is the one package.json publishes. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readVersions } from '../../scripts/sync-version.js';
import { Client, VERSION } from '../../src/index.js';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the runtime version', () => {
  it('equals package.json version', async () => {
    expect(VERSION).toBe(pkg.version);
    expect(await readVersions(root)).toEqual({ pkg: pkg.version, source: pkg.version });
  });

  it('is sent as User-Agent: agentchat-js/<version>', async () => {
    const userAgents: (string | null)[] = [];
    const client = new Client({
      apiKey: 'sk_test_version',
      baseUrl: 'https://agentchat.test/api',
      fetch: async (input, init) => {
        userAgents.push(new Request(input, init).headers.get('user-agent'));
        return Response.json(
          { message: 'hi', suggestions: [] },
          { headers: { 'x-request-id': 'req_1' } },
        );
      },
    });

    await client.chat.send({ projectId: 'proj_1', message: 'Hello' });

    expect(userAgents).toEqual([`agentchat-js/${pkg.version}`]);
  });
});
