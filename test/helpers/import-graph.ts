/**
 * The import graph of a source folder, read with the TypeScript compiler's parser: every
 * `import` and `export ... from`, type-only ones included, `import()` and `import('...')` types,
 * between files of the folder (its subfolders included). Other specifiers (packages, `node:`,
 * and assets a build step reads, such as the MCP Apps views' stylesheet) are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Each file of the folder, relative to it, with the files of the folder it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Reads the imports between the `.ts` files under `folder`. */
export function importGraph(folder: string): ImportGraph {
  const root = resolve(folder);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const path = join(root, file);
    const imported = new Set<string>();
    for (const specifier of specifiers(path)) {
      if (!specifier.startsWith('.') || /\.css$/.test(specifier)) continue;
      // Sources name the file the build emits: `./call.js` is `./call.ts`.
      const target = relative(root, resolve(dirname(path), specifier.replace(/\.js$/, '.ts')));
      if (!target.startsWith('..')) imported.add(target);
    }
    graph.set(file, [...imported].sort());
  }
  for (const [file, imported] of graph) {
    const unknown = imported.filter((target) => !graph.has(target));
    if (unknown.length > 0) throw new Error(`${file} imports ${unknown.join(', ')}, not found`);
  }
  return graph;
}

/** Every module specifier in a file: static imports and re-exports, `import()` and import types. */
function specifiers(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * A group of files that import one another, directly or not, and one path around it, which comes
 * back to where it started (`['a.ts', 'b.ts', 'a.ts']`).
 */
export interface ImportCircle {
  readonly files: readonly string[];
  readonly path: readonly string[];
}

/** The import circles of a graph: its strongly connected groups of files (Tarjan's algorithm). */
export function importCircles(graph: ImportGraph): ImportCircle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return groups.map((files) => ({ files, path: circleThrough(graph, files) }));
}

/** A shortest path from the group's first file back to itself, inside the group. */
function circleThrough(graph: ImportGraph, group: readonly string[]): string[] {
  const start = group[0] as string;
  const members = new Set(group);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = file; at !== start; at = cameFrom.get(at as string)) {
          path.splice(1, 0, at as string);
        }
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [...group, start];
}
