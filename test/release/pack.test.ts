/**
 * What `npm publish` ships: the tarball `npm pack` makes from a fresh clone with no prior build
 * (its `prepack` builds, in the clone, so concurrent runs cannot clash over dist/), extracted and read as a user reads `node_modules/agentchat`. Only the builds, their types and
 * maps, and the package's own documents and guides ship: no tests, no sources, no examples, no
 * secrets. Every relative link in the shipped Markdown, and every guide an error message names,
 * resolves inside the package.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bundledPackages,
  licenseText,
  NOTICES_FILE,
} from '../../scripts/build/third-party-notices.js';
import { brokenRelativeLinks } from '../helpers/markdown-links.js';
import type { PackResult } from '../helpers/pack.js';
import { sharedPackage } from '../helpers/shared-build.js';

const repo = new URL('../..', import.meta.url).pathname;

/** The fresh clone the tarball was packed from; its source maps point into it. */
let copy: string;
/** The extracted tarball: what `node_modules/agentchat` holds after an install. */
let installed: string;
let packed: PackResult;
let paths: string[];

// Packed once per run, before any file starts, by test/global-setup.ts.
beforeAll(() => {
  ({ copy, installed, packed } = sharedPackage());
  paths = packed.files.map((file) => file.path).sort();
});

/** What may ship: the package's documents, its guides, and the builds with their types and maps. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  // The guides and the OpenAPI document, not the generated reference site (docs/reference/).
  /^docs\/[\w-]+\.md$/,
  /^docs\/openapi\.yaml$/,
  /^dist\/(testing\/|mcp\/|otel\/|ai-sdk\/|openai-agents\/|langchain\/|mastra\/)?index\.(js|cjs|d\.ts|d\.cts)$/,
  /^dist\/(testing\/|mcp\/|otel\/|ai-sdk\/|openai-agents\/|langchain\/|mastra\/)?index\.(js|cjs)\.map$/,
  // The diagnostics channels and the server runtime's parts (the User-Agent with appInfo, the
  // causes of a failed connection), each with the stub browsers get instead (package.json
  // `imports`).
  /^dist\/(diagnostics|server-runtime)(\.browser\.js|\.js|\.cjs)(\.map)?$/,
  // The bins: `agentchat-mcp` (the MCP server on stdio, and its --http face, loaded on demand) and
  // `agentchat-mock` (the mock over HTTP).
  /^dist\/mcp\/bin(-http)?\.js(\.map)?$/,
  // The sign-in front's engine, loaded on Node.js through `#sign-in-front`, and the stub other
  // runtimes get (package.json `imports`).
  /^dist\/mcp\/sign-in-front(\.unavailable)?\.(js|cjs)(\.map)?$/,
  // toNodeListener's adapter, loaded on Node.js through `#node-adapter`, and its stub alike.
  /^dist\/mcp\/node-adapter(\.unavailable)?\.(js|cjs)(\.map)?$/,
  // The MCP Apps views' script and style (`#mcp-views`), and the list of what they were built from.
  /^dist\/mcp\/apps\/views\.cjs(\.map)?$/,
  // agentchat/otel's instrumentation in CJS, which its CJS entry requires only once it has found
  // the OpenTelemetry peers (src/otel/entry.cjs.ts); the ESM build shares a chunk instead.
  /^dist\/otel\/instrumentation\.cjs(\.map)?$/,
  /^dist\/bin\/agentchat-mock\.js(\.map)?$/,
  // The licenses of the packages bundled into the builds (scripts/build/third-party-notices.ts).
  /^dist\/THIRD-PARTY-NOTICES\.md$/,
  // Code and declarations the entry points share, split out by the ESM and declaration builds
  // (`chunk-<hash>.js`, `server-<hash>.js` that the bin loads on demand, `client-<hash>.d.ts`),
  // and `load-signing.js`, built apart for webpack's sake (see src/oauth/load-signing.ts).
  /^dist\/[a-z]+-[\w-]+\.(js|d\.ts|d\.cts)(\.map)?$/,
];

/**
 * A declaration file with the declaration chunks it re-exports from (`./client-<hash>.js`), which
 * the declaration build splits out of the entry points that share them.
 */
async function declarationsOf(file: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  const chunks = [...text.matchAll(/from '\.\/([\w-]+)\.c?js'/g)].map(([, name]) =>
    readFile(join(dirname(file), `${name}${file.endsWith('.d.cts') ? '.d.cts' : '.d.ts'}`), 'utf8'),
  );
  return [text, ...(await Promise.all(chunks))].join('\n');
}

describe('npm pack', () => {
  it('packs agentchat at the version of package.json', async () => {
    const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8'));
    expect(packed.name).toBe('agentchat');
    expect(packed.version).toBe(pkg.version);
  });

  it('ships every entry point in ESM and CJS, each with types and a source map', () => {
    for (const entry of [
      'dist/index',
      'dist/testing/index',
      'dist/mcp/index',
      'dist/otel/index',
      'dist/ai-sdk/index',
      'dist/openai-agents/index',
      'dist/langchain/index',
      'dist/mastra/index',
    ]) {
      for (const suffix of ['.js', '.js.map', '.d.ts', '.cjs', '.cjs.map', '.d.cts']) {
        expect(paths).toContain(entry + suffix);
      }
    }
    expect(paths).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']),
    );
  });

  it('ships every guide of docs/, the guides index included, and the OpenAPI document', async () => {
    const guides = (await readdir(join(repo, 'docs'))).filter((file) => file.endsWith('.md'));
    expect(guides).toContain('README.md');
    // The maintainers' pages (docs/maintainers/) stay in the repository.
    expect(await readdir(join(repo, 'docs/maintainers'))).toContain('releasing.md');
    expect(paths.filter((path) => path.startsWith('docs/maintainers/'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('docs/'))).toEqual(
      [...guides, 'openapi.yaml'].map((file) => `docs/${file}`).sort(),
    );
  });

  it('has no dead relative link in the shipped Markdown', async () => {
    const markdown = paths.filter((path) => path.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(10);
    expect(await brokenRelativeLinks(installed, markdown)).toEqual([]);
  });

  it('ships every guide an error message points to', async () => {
    const code = paths.filter((path) => /\.(c?js)$/.test(path));
    const pointers = new Set<string>();
    for (const file of code) {
      const text = await readFile(join(installed, file), 'utf8');
      for (const [pointer] of text.matchAll(/\bdocs\/[\w-]+\.md\b/g)) pointers.add(pointer);
    }
    // The browser guard names docs/browsers.md; a pointer that does not ship would be dead.
    expect([...pointers]).toContain('docs/browsers.md');
    expect([...pointers].filter((pointer) => !paths.includes(pointer))).toEqual([]);
  });

  it('names the repository, its home page and where to report bugs', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    const repository = 'https://github.com/agentchat/agentchat-js';
    expect(manifest.repository).toEqual({ type: 'git', url: `git+${repository}.git` });
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
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
      // Sources are relative to the map; read them relative to the clone the build ran in.
      for (const source of parsed.sources) {
        const path = relative(copy, resolve(dirname(join(copy, map)), source));
        // The clone's node_modules links to the repo's, which the build reads by its real path.
        sources.add(path.replace(/^(\.\.\/)+.*?\/node_modules\//, 'node_modules/'));
      }
    }
    // scripts/build/ holds the build's stand-ins for modules a bundled dependency imports but
    // never calls (node:net in the mock's HTTP bridge): code that ships, so its source is mapped.
    const outside = [...sources].filter(
      (source) => !/^(src|node_modules|scripts\/build)\//.test(source),
    );
    expect(outside).toEqual([]);
    expect([...sources].filter((source) => source.startsWith('src/testing/'))).not.toEqual([]);
  });

  it('carries the license of every package bundled into its code', async () => {
    const bundled = await bundledPackages(copy);
    // Known today: a build that stopped bundling them, or a scan that stopped finding them, shows.
    expect(bundled.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['@remix-run/node-fetch-server', 'jose', 'ky']),
    );
    const notices = await readFile(join(installed, NOTICES_FILE), 'utf8');
    for (const { name, directory } of bundled) {
      const { version } = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'));
      expect(notices).toContain(`## ${name} ${version}`);
      expect(notices).toContain(await licenseText(directory, name));
    }
  });

  it('publishes only the public surface in the client types: no transport, no zod', async () => {
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const types = await declarationsOf(join(copy, 'dist', file));
      expect(types).toContain('declare class Client');
      // An import or export statement, not a TSDoc example that shows a user's own zod schema.
      expect(types).not.toMatch(/^(?:import|export)\b[^;]*?from ['"]zod/m);
      expect(types).not.toContain('class Transport');
    }
  });

  it('stays small: under 7,200 KiB unpacked, 1,860 KiB packed', () => {
    // Measured at about 3.07 MB unpacked and 800 KB packed (2.89 MB and 770 KB before the errors,
    // inputs, deprecated aliases and upgrading guide of 1.3.0 added 174 KB: mostly TSDoc, carried
    // again by each build's declarations and source maps): source maps with their sources inlined
    // (two thirds of it; the CJS build's carries ky and jose, which it bundles so that `require`
    // never loads an ES-only package), the builds of the client, the mock with its test kit, its
    // bin and the HTTP bridge it bundles, the MCP server's stdio and HTTP faces with its OAuth
    // protected resource (the token verifier, and the discovery module it shares with the
    // client), and the guides (about 200 KB). A jump means something shipped by mistake.
    // Companies' networks (issue 41) added 94 KB unpacked, 27 KB packed (818 to 845 KB): the
    // networks guide (8 KB), and fetchOptions, appInfo, the shared capped body read and the named
    // certificate problems with their TSDoc, carried by the ESM, CJS and MCP builds, their
    // declarations and their source maps (60 KB of maps, 14 KB of declarations, 12 KB of code).
    // Workload identity federation (issue 46: workloadIdentity, its three identity sources and the
    // bounded request they share) then added 184 KB unpacked and 43 KB packed: 16 KB of code in
    // each of the ESM and CJS builds of the client, 53 KB in each one's source map, 13 KB in each
    // of its two declaration files (its TSDoc), 11.5 KB of guide (docs/authentication.md's
    // section), 2 KB in agentchat-mcp. The package then measured 3.35 MB unpacked, 888 KB packed.
    // agentchat/otel and the diagnostics channels then added 162 KB unpacked, 47 KB packed
    // (measured against main's build with `npm pack --dry-run`: 3.07 MB and 816 KB before, 3.23 MB
    // and 863 KB after): the instrumentation's ESM and CJS builds, their source maps (68 KB, their
    // TSDoc inlined), its declarations and the declaration chunks it shares with the client
    // (diagnostics, agentchat-error: 17 KB), the channels' module with its map and its browser
    // stub (18 KB), the client's call sites in both builds and maps, and the longer observability
    // guide (9 KB).
    // The MCP server's sign-in front (issue 45) brought it to 3.36 MB: its 60 KB of source
    // (oidc-provider's configuration, the consent page, the upstream sign-in, the memory and
    // Redis stores, the bridge) in the ESM build, loaded on first use (about 100 KB with its source
    // map), and again in the CJS build and its map; its peers stay external, its guide is 10 KB.
    // Packed, 897 KB with it (measured after merging issue 42's work of the same round).
    // Together, with the sign-in front: 3.90 MB (3.72 MiB) unpacked, 1,034 KB (1,010 KiB) packed.
    // Workload identity in the mock (issue 50: the trusted issuers' verifier, the local issuer, the
    // two grants) then added 349 KB unpacked and 82 KB packed (measured with `npm pack --dry-run`
    // on both builds: 3.94 MB and 1,048 KB before, 4.29 MB and 1,130 KB after). Most of it is jose:
    // the CJS build of agentchat/testing bundles jose, as the client's does, and now carries its
    // remote key set, verification and signing (66 KB of code, 168 KB of source map); the rest is
    // the mock's new code with its TSDoc in the ESM build, the declarations and the maps (about
    // 80 KB), and the testing guide's section (10 KB).
    // The rest of that round came to 4.50 MB (4,398 KiB) unpacked and 1,190 KB (1,162 KiB) packed
    // (`npm pack --dry-run`): the sign-in front's defences (the document fetch that checks each
    // address it connects to, the caller's address and the registration limit per caller, the
    // redirect URI rules, the atomic one-time use) in the ESM and CJS builds of the front and their
    // maps; agentchat/otel's instrumentation built apart for CJS, so that its entry can name a
    // missing peer before loading it; the token provider's own checks of a token answer; and the
    // guides' new sections (networks, authentication, the front's rules).
    // agentchat/ai-sdk (issue 53) then added 183 KB unpacked: its ESM and CJS builds (20 KB each:
    // the tool table with its descriptions, the schemas' JSON Schema and the options' checks,
    // bundled apart from agentchat/mcp's copy), their source maps (65 KB each) and declarations
    // (13 KB). Measured with `npm pack --dry-run` on its own branch: 4.13 MB unpacked, 1,075 KiB
    // packed; with the rest of the round, 4.71 MB (4,597 KiB) unpacked and 1,248 KB (1,219 KiB)
    // packed. The sign-in front in production (issue 51: readiness and the store's outages, the
    // upstream discovered at start, the signing keys' formats, `toNodeListener`, and the consent
    // and error pages' look, with their longer guide) then brought it to 4.84 MB (4,726 KiB) and
    // 1,285 KB (1,255 KiB). agentchat/openai-agents then added 108 KB unpacked (its CJS build, 21
    // KB with the tool table, and its map, 67 KB; its ESM build shares the table's chunk with
    // agentchat/ai-sdk): 4.95 MB (4,835 KiB) unpacked and 1,318 KB (1,287 KiB) packed.
    // agentchat/langchain and agentchat/mastra then added about 125 KB and 111 KiB unpacked, 31
    // and 27 KiB packed, as agentchat/ai-sdk did. The MCP Apps views (issue 52) added 714 KB
    // unpacked and 151 KB packed: their one script and style with the extension's `App` class and
    // the MCP client and zod it needs (709 KB minified, 150 KB gzip), shipped once in
    // dist/mcp/apps/views.cjs; the server's icons about 10 KB. Together (`npm pack --dry-run` on
    // main after that round): 5.96 MB (5,816 KiB) unpacked, 1,559 KB (1,523 KiB) packed.
    // agentchat-mcp then bundled the MCP server SDK, so that `npx -y agentchat` serves on stdio
    // with no peer installed: the bin went from 15 KB to 371 KB minified, with a 683 KB map
    // without the sources' text, and the --http face became a file of its own (18 KB). Measured
    // with `npm pack --dry-run` before and after: 6.97 MB (6,808 KiB) unpacked, 1,793 KB
    // (1,751 KiB) packed, up 992 KiB and 228 KiB. ky 2.2 (5.7 KiB more minified, bundled into each
    // CommonJS build and the bin, with their maps), the scrubbing of failures' causes, the sign-in
    // front's store deadline and outage log, and the views' hidden-character and metadata limits
    // then brought it to 7.27 MB (7,098 KiB) unpacked and 1,873 KB (1,829 KiB) packed
    // (`npm pack --dry-run`, 6 December).
    expect(packed.unpackedSize).toBeLessThan(7200 * 1024);
    expect(packed.size).toBeLessThan(1860 * 1024);
  });
});
