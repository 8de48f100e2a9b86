import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { consumerPath } from '../helpers/package-consumer.js';

const run = promisify(execFile);

/** Module settings a user's project may have; `type` is its package.json's. */
const settings = {
  'nodenext, ESM': { type: 'module', module: 'nodenext', moduleResolution: 'nodenext' },
  'nodenext, CJS': { type: 'commonjs', module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { type: 'module', module: 'esnext', moduleResolution: 'bundler' },
  // The legacy setting reads no `exports`: package.json's `types` and `typesVersions` carry it.
  node10: { type: 'commonjs', module: 'commonjs', moduleResolution: 'node10' },
} as const;

/**
 * What a project compiles: consumer/types/usage.ts uses the client, usage-testing.ts the mock.
 * The mock's types build on msw's, which need the DOM library and cannot be resolved under node10
 * (msw's own requirements), so it is checked where msw's types can be.
 */
const projects = {
  'client and mock, DOM lib': {
    lib: ['es2022', 'dom'],
    types: [],
    files: ['usage.ts', 'usage-testing.ts'],
  },
  'client, DOM lib': { lib: ['es2022', 'dom'], types: [], files: ['usage.ts'] },
  'client, Node types without DOM lib': { lib: ['es2022'], types: ['node'], files: ['usage.ts'] },
  // A user's Client must be the very type agentchat/mcp asks for, in ESM and CJS projects alike.
  'client and MCP server, Node types': {
    lib: ['es2022'],
    types: ['node'],
    files: ['usage.ts', 'usage-mcp.ts'],
  },
} as const;

const typescript = {
  version: (
    JSON.parse(
      readFileSync(
        resolve(import.meta.dirname, '../../node_modules/typescript/package.json'),
        'utf8',
      ),
    ) as { version: string }
  ).version,
  bin: resolve(import.meta.dirname, '../../node_modules/typescript/bin/tsc'),
};
const olderTypescript = inject('runtimes').typescript;

/**
 * The repo's TypeScript and the previous major, with the settings each is proven on. Checking
 * every declaration file (skipLibCheck off: ours, zod's, msw's, Node's) costs several seconds a
 * project, so a few projects do it and the rest check the user's code against the types only.
 */
const checks = [
  {
    compiler: typescript,
    setting: 'nodenext, ESM',
    project: 'client and mock, DOM lib',
    libCheck: true,
  },
  {
    compiler: typescript,
    setting: 'nodenext, CJS',
    project: 'client and mock, DOM lib',
    libCheck: false,
  },
  {
    compiler: typescript,
    setting: 'nodenext, CJS',
    project: 'client, Node types without DOM lib',
    libCheck: true,
  },
  {
    compiler: typescript,
    setting: 'nodenext, ESM',
    project: 'client, Node types without DOM lib',
    libCheck: false,
  },
  {
    compiler: typescript,
    setting: 'bundler',
    project: 'client and mock, DOM lib',
    libCheck: false,
  },
  {
    compiler: typescript,
    setting: 'bundler',
    project: 'client, Node types without DOM lib',
    libCheck: false,
  },
  { compiler: typescript, setting: 'node10', project: 'client, DOM lib', libCheck: false },
  {
    compiler: typescript,
    setting: 'node10',
    project: 'client, Node types without DOM lib',
    libCheck: false,
  },
  {
    compiler: olderTypescript,
    setting: 'nodenext, ESM',
    project: 'client and mock, DOM lib',
    libCheck: true,
  },
  {
    compiler: olderTypescript,
    setting: 'nodenext, CJS',
    project: 'client and mock, DOM lib',
    libCheck: false,
  },
  {
    compiler: olderTypescript,
    setting: 'bundler',
    project: 'client and mock, DOM lib',
    libCheck: false,
  },
  { compiler: olderTypescript, setting: 'node10', project: 'client, DOM lib', libCheck: false },
  // The MCP SDK's own declarations are its authors' to check: only ours and the user's code are.
  ...(['nodenext, ESM', 'nodenext, CJS', 'bundler', 'node10'] as const).map((setting) => ({
    compiler: typescript,
    setting,
    project: 'client and MCP server, Node types' as const,
    libCheck: false,
  })),
  ...(['nodenext, ESM', 'nodenext, CJS'] as const).map((setting) => ({
    compiler: olderTypescript,
    setting,
    project: 'client and MCP server, Node types' as const,
    libCheck: false,
  })),
] as const;

describe('a TypeScript project using the installed package', () => {
  it.each(checks)(
    'type-checks with TypeScript $compiler.version, moduleResolution $setting ($project, declarations checked: $libCheck)',
    async ({ compiler, setting, project, libCheck }) => {
      const { type, module, moduleResolution } = settings[setting];
      const { lib, types, files } = projects[project];
      const dir = consumerPath(
        'types',
        `${compiler.version} ${setting} ${project}`.replace(/\W+/g, '-'),
      );
      await mkdir(dir, { recursive: true });
      for (const file of files) await copyFile(consumerPath('types', file), join(dir, file));
      await writeFile(join(dir, 'package.json'), JSON.stringify({ type }));
      await writeFile(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            module,
            moduleResolution,
            lib,
            types,
            strict: true,
            noEmit: true,
            // TypeScript 6's default, and what `tsc --init` writes for earlier versions.
            esModuleInterop: true,
            skipLibCheck: !libCheck,
            // TypeScript 6 deprecates node10 and asks users of it to say they know.
            ...(setting === 'node10' && compiler.version.startsWith('6.')
              ? { ignoreDeprecations: '6.0' }
              : {}),
          },
          files,
        }),
      );
      const output = await run(process.execPath, [
        compiler.bin,
        '-p',
        dir,
        '--pretty',
        'false',
      ]).then(
        ({ stdout }) => stdout,
        (error: { stdout: string; stderr: string }) => error.stdout + error.stderr,
      );
      expect(output.trim()).toBe('');
    },
  );
});
