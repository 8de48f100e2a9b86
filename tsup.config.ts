import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import MagicString from 'magic-string';
import { type RawSourceMap, SourceMapConsumer, SourceMapGenerator } from 'source-map';
import { defineConfig, type Options } from 'tsup';
import { unusedNodeNet } from './scripts/build/unused-node-net.js';
import { buildViewAssets } from './src/mcp/apps/build-views.js';

const entry = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };

/**
 * agentchat/mcp's code is built apart from the entries above: built with them, the code they
 * share moves into a common chunk, and that alone renames identifiers in a minified browser app
 * that never imports agentchat/mcp. Its declarations are built with theirs, so that it names the
 * very `Client` type of agentchat rather than a copy a user's client would not match.
 */
const mcpEntry = { 'mcp/index': 'src/mcp/index.ts' };

/**
 * agentchat/otel, built apart for the same reason, its declarations with the others so that it
 * names agentchat's own channel context types. It subscribes to the client's channels by name and
 * shares no code with the client but the channels' names.
 */
const otelEntry = { 'otel/index': 'src/otel/index.ts' };

/**
 * The agent frameworks' entries, built apart for the same reason, their declarations with the
 * others so that they name agentchat's own `Client`. Each reaches the client through the package's
 * name (see `clientByPackageName`) and its framework, an optional peer, as an external import.
 */
const frameworkEntries = {
  'ai-sdk/index': 'src/ai-sdk/index.ts',
  'openai-agents/index': 'src/openai-agents/index.ts',
  'langchain/index': 'src/langchain/index.ts',
  'mastra/index': 'src/mastra/index.ts',
};

const mcpSources = join(dirname(fileURLToPath(import.meta.url)), 'src', 'mcp');

/**
 * What agentchat/mcp loads only on Node.js, each an entry of its own reached through package.json
 * `imports`, where Node.js gets the module and any other runtime a stub that refuses: the sign-in
 * front's engine (src/mcp/front/engine.ts: oidc-provider, openid-client, node:http) through
 * `#sign-in-front`, and `toNodeListener`'s adapter (src/mcp/node-adapter.ts:
 * `@modelcontextprotocol/node`, node:http) through `#node-adapter`. A bundler following
 * agentchat/mcp's `import()` of either for a browser or a Worker would otherwise fail on Node's
 * modules and the peers, in an app that never runs a front or a Node.js server.
 */
const nodeOnlyEntries = {
  'mcp/sign-in-front': 'src/mcp/front/engine.ts',
  'mcp/sign-in-front.unavailable': 'src/mcp/front/engine.unavailable.ts',
  'mcp/node-adapter': 'src/mcp/node-adapter.ts',
  'mcp/node-adapter.unavailable': 'src/mcp/node-adapter.unavailable.ts',
};

/** Each Node.js-only module's `import()`, by the folder it is made from, and its `imports` name. */
const nodeOnlyImports = [
  { specifier: './engine.js', from: join(mcpSources, 'front'), to: '#sign-in-front' },
  { specifier: './node-adapter.js', from: mcpSources, to: '#node-adapter' },
];

const nodeOnlyByImport: Plugin = {
  name: 'node-only-by-import',
  setup(build) {
    build.onResolve({ filter: /^\.\/(engine|node-adapter)\.js$/ }, ({ path, resolveDir, kind }) => {
      const target = nodeOnlyImports.find(
        (entry) => entry.specifier === path && entry.from === resolveDir,
      );
      return kind === 'dynamic-import' && target ? { path: target.to, external: true } : undefined;
    });
  },
};

/** Where the MCP Apps views' script and style are written: see `builtViewAssets`. */
const viewsOut = join(dirname(fileURLToPath(import.meta.url)), 'dist', 'mcp', 'apps');
/**
 * The MCP Apps views (src/mcp/apps/): their script and style built once (build-views.ts) and
 * written to dist/mcp/apps/views.cjs (package.json `imports`: `#mcp-views`), a CommonJS module
 * that the ESM and CJS builds of agentchat/mcp alike load, by Node.js or a bundler, when a host
 * first reads a view: the package ships them once (about half a second of build), and nothing
 * loads them where no host reads one. Beside it, views.cjs.map
 * names the files they were built from, which the third-party notices read
 * (scripts/build/third-party-notices.ts).
 */
const builtViewAssets: Plugin = {
  name: 'built-view-assets',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]mcp[\\/]apps[\\/]assets\.ts$/ }, () => ({
      contents:
        "export const loadViewAssets = () => import('#mcp-views').then((module) => module.default ?? module);",
      loader: 'js',
    }));
    // By its package.json `imports` name: the code that loads it may land in a shared chunk.
    build.onResolve({ filter: /^#mcp-views$/ }, ({ path }) => ({ path, external: true }));
  },
};

/** Writes dist/mcp/apps/views.cjs and its map: see {@link builtViewAssets}. */
async function writeViewAssets(): Promise<void> {
  const { assets, sources } = await buildViewAssets(viewsOut);
  await mkdir(viewsOut, { recursive: true });
  await writeFile(
    join(viewsOut, 'views.cjs'),
    `'use strict';\nmodule.exports = ${JSON.stringify(assets)};\n`,
  );
  // No mappings: the file's strings are the views' own code, which runs in a host, not here.
  await writeFile(
    join(viewsOut, 'views.cjs.map'),
    JSON.stringify({ version: 3, file: 'views.cjs', sources, names: [], mappings: '' }),
  );
}

const sources = join(dirname(fileURLToPath(import.meta.url)), 'src');

/**
 * The folders of src/ whose code reaches the client through its public entry (`../index.js`):
 * agentchat/mcp, the agent frameworks' entries and the tool table they share.
 */
const byPackageName = ['mcp', 'tools', 'ai-sdk', 'openai-agents', 'langchain', 'mastra'].map(
  (folder) => join(sources, folder),
);

/**
 * agentchat/mcp and the frameworks' entries use the client through its public entry
 * (`../index.js`). In the build that import goes to the package by its own name, which Node
 * resolves to the build the caller loaded: the tools call the user's copy of the client instead of
 * shipping another.
 */
const clientByPackageName: Plugin = {
  name: 'client-by-package-name',
  setup(build) {
    // From any of those folders and their rooms (src/mcp/front/): whatever the depth, the same
    // public entry.
    build.onResolve({ filter: /^(\.\.\/)+index\.js$/ }, ({ path, resolveDir }) =>
      byPackageName.some((folder) => resolveDir.startsWith(folder)) &&
      join(resolveDir, path) === join(sources, 'index.js')
        ? { path: 'agentchat', external: true }
        : undefined,
    );
  },
};

/** The bin's --http face, built with agentchat/mcp: see {@link httpFaceByName}. */
const binHttpFace = 'mcp/bin-http';

/**
 * The bin's `import('./http.js')`, left to Node as the --http face built with agentchat/mcp
 * (dist/mcp/bin-http.js), whose peers stay external: the sign-in front and the Node.js adapter
 * load the user's @modelcontextprotocol/server, and one process must not mix that copy with the
 * one bundled into the bin for stdio. So --http needs its peers installed, as documented.
 */
const httpFaceByName: Plugin = {
  name: 'http-face-by-name',
  setup(build) {
    build.onResolve({ filter: /^\.\/http\.js$/ }, ({ importer, kind }) =>
      kind === 'dynamic-import' && importer === join(mcpSources, 'bin.ts')
        ? { path: `./${binHttpFace.split('/')[1]}.js`, external: true }
        : undefined,
    );
  },
};

/**
 * The MCP server SDK's files as the bin's source map names them: its published build, not the
 * sources its own maps point to (a monorepo's folders, and packages it bundled itself, none of
 * them installed here), so that the third-party notices find the two packages the bin holds.
 */
const bundledSdkAsPublished: Plugin = {
  name: 'bundled-sdk-as-published',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](server|core)[\\/].*\.m?js$/ },
      async ({ path }) => ({
        contents: (await readFile(path, 'utf8')).replace(/\/\/# sourceMappingURL=\S+\s*$/, ''),
        loader: 'js',
      }),
    );
  },
};

const coreSources = join(dirname(fileURLToPath(import.meta.url)), 'src', 'core');

/**
 * The modules of src/core that each build keeps as a file of its own, imported by the name
 * package.json `imports` maps, so that browsers get their stubs (`<name>.browser.ts`) instead:
 * the diagnostics channels' module (diagnostics.ts), for which a page's bundle holds neither the
 * channels' code nor `node:diagnostics_channel`, and server-runtime.ts, the application's
 * User-Agent and the certificate problems' wording, which a page can never use. The CJS build does
 * the same with `<name>.cjs`: webpack takes the CJS build for an app that `require`s agentchat, in
 * a browser too.
 */
const bySubpathImport = ['diagnostics', 'server-runtime'];

const subpathImports: Plugin = {
  name: 'subpath-imports',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir }) => {
      const name = bySubpathImport.find(
        (module) => join(resolveDir, path) === join(coreSources, `${module}.js`),
      );
      return name === undefined ? undefined : { path: `#${name}`, external: true };
    });
  },
};

/** Each of {@link bySubpathImport} as a build entry, with its browser stub where asked. */
const subpathEntries = (withStubs: boolean) =>
  Object.fromEntries(
    bySubpathImport.flatMap((name) => [
      [name, `src/core/${name}.ts`],
      ...(withStubs ? [[`${name}.browser`, `src/core/${name}.browser.ts`]] : []),
    ]),
  );

/** The CJS otel entry's `require('./instrumentation.js')`, left to Node: the built file's name. */
const instrumentationByName: Plugin = {
  name: 'otel-instrumentation-by-name',
  setup(build) {
    build.onResolve({ filter: /^\.\/instrumentation\.js$/ }, ({ importer }) =>
      importer.endsWith(join('src', 'otel', 'entry.cjs.ts'))
        ? { path: './instrumentation.cjs', external: true }
        : undefined,
    );
  },
};

/** A plugin of tsup's own: it sees each built file's text before tsup writes it. */
type OutputPlugin = NonNullable<Options['plugins']>[number];

/**
 * An import of another package by name (zod/mini, ky), as esbuild writes it before tsup's tree
 * shaking: a statement at the start of a line, its names on one line or several.
 */
const packageImport = /^import (?:[\w$*{},\s]+ from )?"(?![.#/]|node:)[^"]+";\n/gm;

/**
 * In each built file, the imports of other packages (zod/mini, ky) come first, before those of
 * the package's own chunks. An app's bundler lays the modules out in the order they are imported:
 * as esbuild writes the entry (its own chunks' imports first), the code a page takes from the
 * shared chunk (the error classes, `cut`, "did you mean") lands before zod's and ky's, 40 KiB
 * away from the rest of the SDK's code, too far for gzip to find what the two have in common.
 * Imported first, zod and ky lay out first, and the SDK's code sits in one piece after them:
 * 0.06 KiB off a page's min+gzip. Neither package runs anything of this package's when loaded,
 * nor the chunks anything of theirs, so which loads first changes nothing else. Tree shaking
 * (Rollup, after this) keeps the order and merges each package's imports into its first.
 */
const packagesFirst: OutputPlugin = {
  name: 'packages-first',
  renderChunk(code, { path, map }) {
    const imports = [...code.matchAll(packageImport)];
    if (imports.length === 0) return undefined;
    const moved = new MagicString(code);
    // After a bin's `#!` line, which stays the first.
    const top = code.startsWith('#!') ? code.indexOf('\n') + 1 : 0;
    for (const { 0: statement, index } of imports) moved.move(index, index + statement.length, top);
    // A map only where the build writes one, already through the build's (see throughBuildMap).
    const movedMap = map
      ? throughBuildMap(moved.generateMap({ hires: true, source: path }), map, path)
      : null;
    return { code: moved.toString(), map: movedMap };
  },
};

/**
 * `moved` (a map from the rewritten file to the built file `path`) taken through `built` (the
 * build's map from `path` to the sources), keeping only what reaches a source. tsup would compose
 * the two itself, but it keeps a position the build left unmapped (a comment, an import line) as
 * a position in `path`, so the published map would name the built file among its sources.
 */
function throughBuildMap(
  moved: ReturnType<MagicString['generateMap']>,
  built: string | object,
  path: string,
): RawSourceMap {
  const generator = SourceMapGenerator.fromSourceMap(
    new SourceMapConsumer(moved as unknown as RawSourceMap),
  );
  generator.applySourceMap(
    new SourceMapConsumer((typeof built === 'string' ? JSON.parse(built) : built) as RawSourceMap),
    path,
  );
  const composed = new SourceMapConsumer(JSON.parse(generator.toString()) as RawSourceMap);
  const kept = new SourceMapGenerator({ file: moved.file ?? path });
  composed.eachMapping((mapping) => {
    if (mapping.source === null || mapping.source === path) return;
    kept.addMapping({
      generated: { line: mapping.generatedLine, column: mapping.generatedColumn },
      original: { line: mapping.originalLine, column: mapping.originalColumn },
      source: mapping.source,
      ...(mapping.name ? { name: mapping.name } : {}),
    });
  });
  // Every source the map names (source-map's declarations leave the list out).
  for (const source of (composed as unknown as { sources: string[] }).sources) {
    const content = composed.sourceContentFor(source, true);
    if (source !== path && content !== null) kept.setSourceContent(source, content);
  }
  return JSON.parse(kept.toString()) as RawSourceMap;
}

// Leave `@internal` declarations (the transport the resource classes are built with) out of the
// published types, so a user's compiler sees only the public surface and never loads zod's types.
const dts = {
  compilerOptions: { stripInternal: true },
  entry: { ...entry, ...mcpEntry, ...otelEntry, ...frameworkEntries },
};

export default defineConfig([
  {
    // ESM: dependencies stay external so an app that also uses zod ships one copy. The
    // agentchat-mock bin is built here too (run by Node from its path, so no types), so that it
    // shares the mock's code with agentchat/testing through a chunk rather than ship a copy.
    // load-signing is no public entry: built as one, its `import()` lands in a file of its own,
    // which webpack can drop whole from an app without OAuth (see src/oauth/load-signing.ts).
    entry: {
      ...entry,
      'bin/agentchat-mock': 'src/testing/node/bin.ts',
      'load-signing': 'src/oauth/load-signing.ts',
      ...subpathEntries(true),
    },
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    // Folded constants, dead branches gone, shorter forms: what a consumer's minifier cannot do
    // across the modules of a built file (a top-level `const` is a `var` by then). Names and
    // formatting stay, so the build still reads as the source; 0.01 to 0.03 KiB off a page's min+gzip.
    minifySyntax: true,
    // Node's modules stay imports, `node:` and all, but `node:net`: see scripts/build/unused-node-net.ts.
    removeNodeProtocol: false,
    external: [/^node:(?!net$)/],
    esbuildPlugins: [unusedNodeNet, subpathImports],
    plugins: [packagesFirst],
    dts,
    sourcemap: true,
    clean: true,
    treeshake: true,
  },
  {
    // CJS: ky is ESM only, and `require('ky')` fails at run time on the Node versions the package
    // supports, so ky is bundled in. jose is ESM only too, and the CJS build would require it
    // when it loads, OAuth or not: bundled, only the three functions signing uses come along.
    // zod ships CJS too, so it stays external.
    entry: { ...entry, ...subpathEntries(false) },
    format: ['cjs'],
    noExternal: ['ky', 'jose'],
    target: 'es2022',
    platform: 'node',
    // As the ESM build: webpack takes this one for an app that `require`s agentchat, in a page too.
    minifySyntax: true,
    removeNodeProtocol: false,
    esbuildPlugins: [unusedNodeNet, subpathImports],
    dts,
    sourcemap: true,
    treeshake: true,
  },
  {
    // agentchat/mcp in ESM, with the `agentchat-mcp` bin's --http face (see `httpFaceByName`).
    // Optional peers stay external: the bin loads that face only once it is asked for.
    entry: { ...mcpEntry, [binHttpFace]: 'src/mcp/http.ts', ...nodeOnlyEntries },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    esbuildPlugins: [clientByPackageName, nodeOnlyByImport, builtViewAssets],
    sourcemap: true,
    treeshake: true,
    onSuccess: writeViewAssets,
  },
  {
    // The `agentchat-mcp` bin (ESM only, no types), one file of its own: the MCP server SDK
    // bundled in, so that `npx -y agentchat` serves on stdio with no peer installed. Built apart
    // from agentchat/mcp so that none of that copy lands in a chunk the library shares: the
    // library keeps handing its user's own copy of the SDK to the user's code. The client comes
    // from the package by its name, as for the library; zod stays the package's dependency.
    entry: { 'mcp/bin': 'src/mcp/bin.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    noExternal: [/^@modelcontextprotocol\/(server|core)(\/|$)/],
    splitting: false,
    // Minified, and its map without the sources' text: a bin no one imports or reads, whose
    // stack traces the map still resolves to file and line: 0.37 MB and a 0.68 MB map, where
    // built as the others it would be 0.74 MB and a 2 MB map.
    minify: true,
    esbuildOptions(options) {
      options.sourcesContent = false;
    },
    esbuildPlugins: [
      clientByPackageName,
      nodeOnlyByImport,
      builtViewAssets,
      httpFaceByName,
      bundledSdkAsPublished,
    ],
    sourcemap: true,
    treeshake: true,
  },
  {
    entry: {
      ...mcpEntry,
      'mcp/sign-in-front': 'src/mcp/front/engine.ts',
      'mcp/node-adapter': 'src/mcp/node-adapter.ts',
    },
    format: ['cjs'],
    target: 'es2022',
    platform: 'node',
    esbuildPlugins: [clientByPackageName, nodeOnlyByImport, builtViewAssets],
    sourcemap: true,
    treeshake: true,
  },
  // agentchat/otel in ESM and CJS; its OpenTelemetry peers stay external, and each build loads
  // the instrumentation only once it has found them (src/otel/peers.ts): an entry per format,
  // index.ts giving both their types. The ESM build's `import()` splits the instrumentation into
  // a chunk of its own; the CJS build would hoist the peers' `require` to the top of one file, so
  // the instrumentation is a file of its own there, which the entry requires by name.
  {
    entry: { 'otel/index': 'src/otel/entry.esm.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    sourcemap: true,
    treeshake: true,
  },
  {
    entry: {
      'otel/index': 'src/otel/entry.cjs.ts',
      'otel/instrumentation': 'src/otel/instrumentation.ts',
    },
    format: ['cjs'],
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    esbuildPlugins: [instrumentationByName],
    sourcemap: true,
    treeshake: true,
  },
  {
    // The frameworks' entries in ESM and CJS, for any runtime the client runs on (the AI SDK's in
    // browsers and Workers too): no Node.js module, the frameworks external.
    entry: frameworkEntries,
    format: ['esm', 'cjs'],
    target: 'es2022',
    platform: 'neutral',
    esbuildPlugins: [clientByPackageName],
    sourcemap: true,
    treeshake: true,
  },
]);
