/**
 * What `npm publish` would ship: the file list of `npm pack --dry-run --json`, for a fresh build
 * made the way `npm run build` makes it (into a scratch copy, so concurrent runs cannot clash
 * over dist/). Only the builds, their types and maps, and the package's own documents ship:
 * no tests, no sources, no examples, no secrets.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';

const repo = new URL('../..', import.meta.url).pathname;

interface PackedFile {
  path: string;
  size: number;
}
interface PackResult {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await runProcess(command, args, { cwd });
  if (code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`);
  return stdout;
}

let copy: string;
let packed: PackResult;
let paths: string[];

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'agentchat-pack-'));
  // The build of `npm run build` (tsup with tsup.config.ts), written into the copy.
  await run('tsup', ['--out-dir', join(copy, 'dist'), '--silent'], repo);
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    await cp(join(repo, file), join(copy, file));
  }
  const output = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], copy);
  const [result] = JSON.parse(output) as PackResult[];
  if (!result) throw new Error(`npm pack reported nothing:\n${output}`);
  packed = result;
  paths = packed.files.map((file) => file.path).sort();
}, 240_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

/** What may ship: the package's documents, and the builds with their types and maps. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^dist\/(testing\/)?index\.(js|cjs|d\.ts|d\.cts)$/,
  /^dist\/(testing\/)?index\.(js|cjs)\.map$/,
  // Code shared by the two entry points, split out by the ESM build.
  /^dist\/chunk-[\w-]+\.(js|cjs)(\.map)?$/,
  // The agentchat-mock bin.
  /^dist\/bin\/agentchat-mock\.js(\.map)?$/,
];

describe('npm pack --dry-run', () => {
  it('packs agentchat at the version of package.json', async () => {
    const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8'));
    expect(packed.name).toBe('agentchat');
    expect(packed.version).toBe(pkg.version);
  });

  it('ships both entry points in ESM and CJS, each with types and a source map', () => {
    for (const entry of ['dist/index', 'dist/testing/index']) {
      for (const suffix of ['.js', '.js.map', '.d.ts', '.cjs', '.cjs.map', '.d.cts']) {
        expect(paths).toContain(entry + suffix);
      }
    }
    expect(paths).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']),
    );
  });

  it('ships nothing else: no tests, sources, examples, scripts or secrets', () => {
    expect(paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
    expect(
      paths.filter((path) =>
        /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.|\.env|\.npmrc|\.tgz$|^src\/|^examples\//.test(
          path,
        ),
      ),
    ).toEqual([]);
  });

  it('has source maps of the package sources only, never of tests', async () => {
    const maps = paths.filter((path) => path.endsWith('.map'));
    const sources = new Set<string>();
    for (const map of maps) {
      const parsed = JSON.parse(await readFile(join(copy, map), 'utf8')) as { sources: string[] };
      // Sources are relative to the map; read them relative to the repo the build ran in.
      for (const source of parsed.sources) {
        sources.add(relative(repo, resolve(dirname(join(copy, map)), source)));
      }
    }
    const outside = [...sources].filter(
      (source) => !source.startsWith('src/') && !source.startsWith('node_modules/'),
    );
    expect(outside).toEqual([]);
    expect([...sources].filter((source) => source.startsWith('src/testing/'))).not.toEqual([]);
  });

  it('publishes only the public surface in the client types: no transport, no zod', async () => {
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const types = await readFile(join(copy, 'dist', file), 'utf8');
      expect(types).toContain('declare class Client');
      expect(types).not.toMatch(/from ['"]zod/);
      expect(types).not.toContain('class Transport');
    }
  });

  it('stays small: under 950 KB unpacked, 260 KB packed', () => {
    // Measured at about 740 KB unpacked and 197 KB packed (with the mock's token endpoint, CORS
    // and the agentchat-mock bin), most of it source maps with their sources inlined. A jump
    // means something shipped by mistake.
    expect(packed.unpackedSize).toBeLessThan(950 * 1024);
    expect(packed.size).toBeLessThan(260 * 1024);
  });
});
