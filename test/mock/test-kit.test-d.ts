import { describe, expectTypeOf, it } from 'vitest';
import type { ChatReply, CreatedProject, Project } from '../../src/index.js';
import {
  createMockService,
  type OverrideContext,
  type ProjectParams,
  type StoredProject,
  startMockServer,
  type TokenGrantType,
} from '../../src/testing/index.js';

const mock = createMockService();

describe('test kit types', () => {
  it('says how each issued token was obtained, and for which workload', () => {
    const [token] = mock.oauth.tokens();
    expectTypeOf(token?.grant).toEqualTypeOf<TokenGrantType | undefined>();
    expectTypeOf<TokenGrantType>().toEqualTypeOf<
      'client-credentials' | 'jwt-bearer' | 'token-exchange'
    >();
    expectTypeOf(token?.identity).toEqualTypeOf<{ issuer: string; subject: string } | undefined>();
  });

  it('gives each override its operation’s params and project', () => {
    mock.override('projects.get', (context) => {
      expectTypeOf(context).toEqualTypeOf<OverrideContext<'projects.get'>>();
      expectTypeOf(context.params).toEqualTypeOf<ProjectParams>();
      expectTypeOf(context.project).toEqualTypeOf<StoredProject | undefined>();
      expectTypeOf(context.request).toEqualTypeOf<Request>();
      return { kind: 'status', status: 404 };
    });
    mock.override('projects.create', ({ project }) => {
      expectTypeOf(project).toEqualTypeOf<undefined>();
      const created: CreatedProject = {
        id: 'proj_1',
        name: 'n',
        status: 'active',
        createdAt: '2026-01-31T09:30:00Z',
      };
      return created;
    });
  });

  it('takes the SDK’s own result types as bodies, and faults', () => {
    const reply: ChatReply = { message: 'Hi', suggestions: ['More'] };
    mock.override('chat.send', () => reply, { once: true });
    mock.override('chat.send', async () => ({ kind: 'network-error' }));
    mock.override('projects.get', ({ project }) => project as Project);
  });

  it('rejects a wrongly shaped override at compile time', () => {
    // @ts-expect-error: a chat reply's message is a string
    mock.override('chat.send', () => ({ message: 1, suggestions: [] }));
    // @ts-expect-error: a chat reply has suggestions
    mock.override('chat.send', () => ({ message: 'Hi' }));
    // @ts-expect-error: projects.get answers the full project, agentId and metadata included
    mock.override('projects.get', () => ({
      id: 'proj_1',
      name: 'n',
      status: 'active',
      createdAt: '',
    }));
    // @ts-expect-error: not an operation of the SDK
    mock.override('projects.delete', () => ({ kind: 'hang' }));
    // @ts-expect-error: not a fault kind
    mock.override('projects.get', () => ({ kind: 'teapot' }));
    // @ts-expect-error: create has no project to give
    mock.override('projects.create', ({ project }) => ({ ...project, name: 'n' }));
    // @ts-expect-error: `once` is a boolean
    mock.override('chat.send', () => ({ kind: 'hang' }), { once: 'yes' });
  });

  it('types seeds and the scripted agent', () => {
    createMockService({
      projects: [{ name: 'n', agentId: 'a' }],
      agent: ({ project, message }) => ({
        message: `${project.name}: ${message}`,
        suggestions: [],
      }),
    });
    // @ts-expect-error: a seed needs an agentId
    createMockService({ projects: [{ name: 'n' }] });
    // @ts-expect-error: the agent answers a chat reply
    createMockService({ agent: () => 'Hi' });
    // @ts-expect-error: startMockServer takes no baseUrl; it listens and makes its own
    void startMockServer({ baseUrl: 'https://x.test' });
  });
});
