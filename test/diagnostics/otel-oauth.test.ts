/**
 * agentchat/otel on a token provider's calls, with the real OpenTelemetry SDK, against a token
 * server on 127.0.0.1: discovery and the token request are recorded as any call (a span per call
 * named after the operation, a CLIENT span per attempt, the duration histogram), though their
 * channel contexts carry no params and no result; and no span holds a secret.
 */
import { inspect } from 'node:util';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientCredentials, OAuthError } from '../../src/index.js';
import { parentOf, useOpenTelemetry } from '../helpers/otel-sdk.js';
import {
  freshToken,
  sentSecrets,
  startTokenServer,
  type TokenServer,
} from '../oauth/token-server.js';

const { exporter, named, durationPoints } = useOpenTelemetry();
let server: TokenServer;
beforeAll(async () => {
  server = await startTokenServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

/** Every finished span, whole, as an exporter could send it. */
const spansText = () =>
  inspect(exporter.getFinishedSpans(), { depth: Number.POSITIVE_INFINITY, showHidden: true });

describe('AgentChatInstrumentation on a token provider', () => {
  it('records discovery and the token request as calls with their attempts, and no secret', async () => {
    const clientSecret = freshToken('secret');
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: clientCredentials({ issuer: server.issuer, clientId: 'traced', clientSecret }),
    });
    const before = (await durationPoints()).reduce((sum, point) => sum + point.value.count, 0);
    await client.projects.get('proj_1');

    const [discovery] = named('oauth.discovery');
    const [token] = named('oauth.token');
    expect(discovery?.kind).toBe(SpanKind.INTERNAL);
    expect(token?.kind).toBe(SpanKind.INTERNAL);
    expect(token?.attributes['agentchat.operation']).toBe('oauth.token');
    expect(token?.status.code).not.toBe(SpanStatusCode.ERROR);

    const attempts = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
    const tokenAttempt = attempts.find((span) => parentOf(span) === token?.spanContext().spanId);
    expect(tokenAttempt?.name).toBe('POST');
    expect(tokenAttempt?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.full': server.tokenUrl,
      'http.response.status_code': 200,
    });
    const discoveryAttempt = attempts.find(
      (span) => parentOf(span) === discovery?.spanContext().spanId,
    );
    expect(discoveryAttempt?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': `${server.issuer}/.well-known/oauth-authorization-server`,
      'http.response.status_code': 200,
    });
    // Discovery, the token request and the service's call: a point each.
    const after = (await durationPoints()).reduce((sum, point) => sum + point.value.count, 0);
    expect(after - before).toBe(3);

    const text = spansText();
    const secrets = [clientSecret, ...sentSecrets(server.requests), ...server.issued];
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  });

  it('records a refused token request as a failed call, its error type named', async () => {
    server.answer({ status: 401, body: { error: 'invalid_client' } });
    const clientSecret = freshToken('secret');
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: clientCredentials({ tokenUrl: server.tokenUrl, clientId: 'traced', clientSecret }),
    });
    await expect(client.projects.get('proj_1')).rejects.toThrow(OAuthError);

    const [token] = named('oauth.token');
    expect(token?.status.code).toBe(SpanStatusCode.ERROR);
    expect(token?.attributes['error.type']).toBe('AuthenticationError');
    const text = spansText();
    const secrets = [clientSecret, ...sentSecrets(server.requests)];
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  });
});
