/**
 * The guard of `agentchat-mcp --http` against requests fetch cannot represent, as a function: what
 * it takes and refuses, and how seldom it writes to the log. test/reliability/hostile-clients.test.ts
 * proves it on the running server.
 */
import { describe, expect, it } from 'vitest';
import {
  malformedRequestGuard,
  malformedRequestProblem,
  toOriginForm,
} from '../../src/mcp/malformed-request.js';

const request = (headers: Record<string, string>, url = '/mcp', method = 'POST') => ({
  method,
  url,
  headers,
});

describe('malformedRequestProblem', () => {
  it.each(['localhost', 'localhost:8787', '127.0.0.1:1', '[::1]:8787', 'a-b.example.com', 'h:'])(
    'takes the Host %s',
    (host) => {
      expect(malformedRequestProblem(request({ host }))).toBeUndefined();
    },
  );

  it.each(['a b', 'x:99999', '[::1', `${'h'.repeat(8192)}.example`, 'a\tb', 'a/b'])(
    'refuses the Host %s',
    (host) => {
      expect(malformedRequestProblem(request({ host }))).toBe('a malformed Host header');
    },
  );

  it('refuses a request target that is not a path, and the methods fetch forbids', () => {
    expect(malformedRequestProblem(request({}, '*', 'OPTIONS'))).toBe(
      'a request target that is not a path',
    );
    expect(malformedRequestProblem(request({}, 'ftp://127.0.0.1/mcp'))).toBe(
      'a request target that is not a path',
    );
    expect(malformedRequestProblem(request({}, '/mcp', 'TRACE'))).toBe('a method fetch forbids');
    expect(malformedRequestProblem(request({}, '/mcp', 'GET'))).toBeUndefined();
  });
});

describe('toOriginForm', () => {
  it.each([
    ['http://127.0.0.1:8787/mcp', '/mcp', '127.0.0.1:8787'],
    ['HTTPS://example.com/mcp?a=1', '/mcp?a=1', 'example.com'],
    ['http://[::1]:8787', '/', '[::1]:8787'],
    ['http://localhost?q', '/?q', 'localhost'],
  ])(
    'puts the absolute-form target %s in origin form, its authority the Host',
    (url, path, host) => {
      const target = request({ host: 'proxy.example' }, url);
      toOriginForm(target);
      expect(target).toMatchObject({ url: path, headers: { host } });
      expect(malformedRequestProblem(target)).toBeUndefined();
    },
  );

  it.each(['*', 'ftp://host/mcp', 'http://user@host/mcp', 'http:///mcp', 'http://host#x'])(
    'leaves the target %s alone, for the checks to refuse',
    (url) => {
      const target = request({ host: 'localhost' }, url);
      toOriginForm(target);
      expect(target).toEqual(request({ host: 'localhost' }, url));
      expect(malformedRequestProblem(target)).toBe('a request target that is not a path');
    },
  );

  it('leaves a path alone, and an authority that is no host to the Host check', () => {
    const path = request({ host: 'localhost' }, '/mcp?a=1');
    toOriginForm(path);
    expect(path).toEqual(request({ host: 'localhost' }, '/mcp?a=1'));
    const spaced = request({ host: 'localhost' }, 'http://a b/mcp');
    toOriginForm(spaced);
    expect(malformedRequestProblem(spaced)).toBe('a malformed Host header');
  });
});

describe('malformedRequestGuard', () => {
  it('answers 400 and writes the count of refusals at most once a minute', () => {
    let now = 0;
    const lines: string[] = [];
    const refuse = malformedRequestGuard(
      (line) => lines.push(line),
      () => now,
    );
    const statuses: number[] = [];
    const response = {
      writeHead: (status: number) => {
        statuses.push(status);
        return response;
      },
      end: () => response,
    };
    const send = () => refuse(request({ host: 'a b' }) as never, response as never);

    expect(send()).toBe(true);
    for (let i = 0; i < 99; i++) send();
    now = 59_999;
    send();
    expect(lines).toHaveLength(1);
    now = 60_000;
    send();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('refused 101 malformed requests');
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(refuse(request({ host: 'localhost' }) as never, response as never)).toBe(false);
  });
});
