/**
 * A stateful mock of the service for tests and demos: msw handlers for Node and browsers
 * ({@link createMockService}) and a real HTTP server on 127.0.0.1 ({@link startMockServer}).
 * Needs the optional peer dependency `msw`.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 * import { startMockServer } from 'agentchat/testing';
 *
 * const server = await startMockServer();
 * const client = new Client({ apiKey: 'sk_test', baseUrl: server.baseUrl });
 * await client.projects.create({ name: 'Demo', agentId: 'agent_1' });
 * await server.close();
 * ```
 *
 * @packageDocumentation
 * @module agentchat/testing
 */
export type { AgentTurn, MockAgent } from './agent.js';
export type { Fault, FaultAnswer, FaultTarget } from './faults/fault.js';
export type {
  MockOperation,
  MockOperations,
  OperationShape,
  OverrideAnswer,
  OverrideContext,
  OverrideHandler,
  OverrideOptions,
  ProjectParams,
} from './handlers/overrides.js';
export {
  createLocalIssuer,
  type IdentityTokenClaims,
  type LocalIssuer,
  type LocalIssuerOptions,
} from './identity/local-issuer.js';
export type { TrustedIssuer } from './identity/trusted-issuers.js';
export {
  createMockService,
  type MockOAuth,
  type MockService,
  type MockServiceOptions,
} from './mock-service.js';
export {
  type LocalIssuerServer,
  type LocalIssuerServerOptions,
  startLocalIssuer,
} from './node/local-issuer-server.js';
export { type MockServer, type MockServerOptions, startMockServer } from './node/server.js';
export type { OAuthClient } from './store/oauth-clients.js';
export type { StoredProject } from './store/projects.js';
export type { RecordedRequest } from './store/request-log.js';
export type { ProjectSeed } from './store/seeds.js';
export type { IssuedToken, TokenGrantType, TokenIdentity } from './store/tokens.js';
export { strictListen } from './strict-listen.js';
