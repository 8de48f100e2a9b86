/**
 * The TypeDoc reference is part of the product: it must build from `typedoc.json` with every
 * validation on and warnings treated as errors, and every exported symbol must carry the TSDoc a
 * user reads first (a summary, an example, `@default` on options, `@throws` on calls that fail).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Comment,
  type DeclarationReflection,
  type ProjectReflection,
  ReflectionKind,
} from 'typedoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltSite, buildSite } from '../helpers/build-site.js';
import { fencedTypeScript, type Snippet, typecheckSnippets } from '../helpers/doc-snippets.js';

let site: BuiltSite;

beforeAll(async () => {
  site = await buildSite();
}, 120_000);

afterAll(async () => {
  if (site) await rm(site.out, { recursive: true, force: true });
});

function requireProject(): ProjectReflection {
  if (!site.project) {
    throw new Error(`TypeDoc could not convert the project:\n${site.messages.join('\n')}`);
  }
  return site.project;
}

describe('the TypeDoc reference', () => {
  it('builds with validation on and no warnings', async () => {
    requireProject();
    expect(site.messages).toEqual([]);
    const index = await readFile(join(site.out, 'index.html'), 'utf8');
    expect(index).toContain('agentchat');
  });

  it('documents every entry point', () => {
    const names = requireProject().children?.map((module) => module.name);
    expect(names).toEqual(['agentchat', 'agentchat/mcp', 'agentchat/testing']);
  });

  it('has a page for the client, its resources, every error, the mock service and the MCP server', () => {
    const exported = allExports(requireProject()).map((reflection) => reflection.name);
    for (const name of [
      'Client',
      'Projects',
      'Chat',
      'ClientOptions',
      'RequestOptions',
      'APIError',
      'RateLimitError',
      'createMockService',
      'startMockServer',
      'Fault',
      'createMcpServer',
      'McpServerOptions',
    ]) {
      expect(exported).toContain(name);
    }
  });
});

describe('TSDoc on every export', () => {
  it('gives each exported symbol a summary and an @example', () => {
    const missing: string[] = [];
    for (const reflection of allExports(requireProject())) {
      const comment = commentOf(reflection);
      if (!hasSummary(comment)) missing.push(`${reflection.name}: no summary`);
      if (!comment?.getTag('@example')) missing.push(`${reflection.name}: no @example`);
    }
    expect(missing).toEqual([]);
  });

  it('gives each option a summary and a @default', () => {
    const missing: string[] = [];
    for (const options of allExports(requireProject()).filter(isOptionsInterface)) {
      for (const property of options.children ?? []) {
        const comment = commentOf(property);
        const where = `${options.name}.${property.name}`;
        if (!hasSummary(comment)) missing.push(`${where}: no summary`);
        if (!comment?.getTag('@default')) missing.push(`${where}: no @default`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has @example code that compiles against the current API', async () => {
    const snippets: Snippet[] = [];
    for (const reflection of Object.values(requireProject().reflections)) {
      for (const tag of reflection.comment?.getTags('@example') ?? []) {
        const text = tag.content.map((part) => part.text).join('');
        snippets.push(...fencedTypeScript(text, reflection.getFullName()));
      }
    }
    expect(snippets.length).toBeGreaterThan(50);
    expect(await typecheckSnippets(snippets)).toEqual([]);
  }, 120_000);

  it('says what each call throws, with an @example', () => {
    const missing: string[] = [];
    for (const [where, comment] of fallibleCalls(requireProject())) {
      if (!comment?.getTag('@throws')) missing.push(`${where}: no @throws`);
      if (!comment?.getTag('@example')) missing.push(`${where}: no @example`);
    }
    expect(missing).toEqual([]);
  });
});

function allExports(root: ProjectReflection): DeclarationReflection[] {
  return (root.children ?? []).flatMap((module) => module.children ?? []);
}

/** A function's or method's comment lives on its signature; everything else's on itself. */
function commentOf(reflection: DeclarationReflection): Comment | undefined {
  return reflection.comment ?? reflection.signatures?.[0]?.comment;
}

function hasSummary(comment: Comment | undefined): boolean {
  return (comment?.summary ?? []).some((part) => part.text.trim() !== '');
}

function isOptionsInterface(reflection: DeclarationReflection): boolean {
  return reflection.kindOf(ReflectionKind.Interface) && reflection.name.endsWith('Options');
}

/**
 * Calls a user makes that can fail: the constructor of a class that checks its options, exported
 * functions, and methods that take input or return a promise. Type guards and members a user
 * implements rather than calls (`Logger`) are not calls that fail.
 */
function fallibleCalls(root: ProjectReflection): [string, Comment | undefined][] {
  const calls: [string, Comment | undefined][] = [];
  // Interfaces the user implements: their methods are the user's calls, not the SDK's.
  const userImplemented = new Set(['Logger', 'TokenCache']);
  for (const reflection of allExports(root)) {
    if (reflection.kindOf(ReflectionKind.Function) && !isTypeGuard(reflection)) {
      calls.push([reflection.name, commentOf(reflection)]);
    }
    if (
      !reflection.kindOf(ReflectionKind.ClassOrInterface) ||
      userImplemented.has(reflection.name)
    ) {
      continue;
    }
    for (const member of reflection.children ?? []) {
      // Inherited members are checked where they are declared; `[Symbol.hasInstance]` and the
      // like are language hooks, not calls a user makes.
      if (member.flags.isInherited || member.flags.isExternal || member.name.startsWith('[')) {
        continue;
      }
      const signature = member.signatures?.[0];
      if (!signature) continue;
      const checksOptions =
        member.kindOf(ReflectionKind.Constructor) && reflection.name === 'Client';
      const takesInput =
        member.kindOf(ReflectionKind.Method) && (signature.parameters?.length ?? 0) > 0;
      const returnsPromise = /Promise$/.test(signature.type?.toString().split('<')[0] ?? '');
      if (checksOptions || ((takesInput || returnsPromise) && !isTypeGuard(member))) {
        calls.push([`${reflection.name}.${member.name}`, commentOf(member)]);
      }
    }
  }
  return calls;
}

function isTypeGuard(reflection: DeclarationReflection): boolean {
  return reflection.signatures?.[0]?.type?.type === 'predicate';
}
