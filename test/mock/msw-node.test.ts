import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockService, strictListen } from '../../src/testing/index.js';
import { registerMockScenarios, SCENARIO_OPTIONS } from '../helpers/mock-scenarios.js';
import { contractProblems } from '../helpers/openapi-contract.js';
import { mswMajor } from './msw-major.js';

const service = createMockService(SCENARIO_OPTIONS);
const server = setupServer(...service.handlers);

beforeAll(() => strictListen(server));
afterAll(() => server.close());

describe(`mock service on msw ${mswMajor}'s msw/node`, () => {
  registerMockScenarios({ service: () => service, speaksCorsByHand: true, contractProblems });

  it('fails a request that no handler serves, with strictListen on this msw major', async () => {
    // msw reports the request on the console as well: kept off the test run's output, and read.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = await fetch('https://elsewhere.test/v1/projects').then(
      () => undefined,
      (error: Error) => error,
    );
    expect(printed.mock.calls.join('\n')).toContain('GET https://elsewhere.test/v1/projects');
    printed.mockRestore();

    // msw 3 wraps its refusal in fetch's TypeError; msw 2 rejects with it directly.
    const refusal = failure?.cause instanceof Error ? failure.cause : failure;
    const option = mswMajor === 2 ? 'onUnhandledRequest' : 'onUnhandledFrame';
    expect(refusal?.message).toContain(`the "error" strategy for the "${option}" option`);
  });

  it('settles a hanging handler once fetch aborts', async () => {
    service.enqueue({ kind: 'hang' });
    // msw announces the match once the handler has returned, whatever it returned.
    const handled = new Promise<void>((resolve) => {
      const onMatch = () => {
        server.events.removeListener('request:match', onMatch);
        resolve();
      };
      server.events.on('request:match', onMatch);
    });
    const controller = new AbortController();
    const pending = fetch(`${service.baseUrl}/v1/projects`, { signal: controller.signal });
    const rejected = expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    await expect.poll(() => service.requestLog().length).toBe(1);
    controller.abort();
    await rejected;
    await handled;
  });
});
