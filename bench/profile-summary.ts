/**
 * Reads a V8 CPU profile (`node --cpu-prof`, see profile.ts) and prints where the time went: self
 * time by package (ky, zod, undici, the SDK's dist, the garbage collector), the functions with the
 * most self time, and the functions with the most inclusive time (their callees counted), each as
 * a share of the sampled time outside idle.
 *
 *   npx tsx bench/profile-summary.ts .tmp/profiles/CPU.<…>.cpuprofile [rows]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [rows]');
const rows = Number(rowsArg);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parents.set(child, node.id);

// Self time per node: each sample's time delta belongs to the node it hit.
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const isIdle = (node: ProfileNode) => node.callFrame.functionName === '(idle)';
const busy = [...selfTime]
  .filter(([id]) => !isIdle(nodes.get(id) as ProfileNode))
  .reduce((sum, [, time]) => sum + time, 0);

const byPackage = new Map<string, number>();
const bySelf = new Map<string, number>();
const byInclusive = new Map<string, number>();
const add = (map: Map<string, number>, key: string, time: number) =>
  map.set(key, (map.get(key) ?? 0) + time);

for (const [id, time] of selfTime) {
  const node = nodes.get(id) as ProfileNode;
  if (isIdle(node)) continue;
  add(byPackage, packageOf(node), time);
  add(bySelf, label(node), time);
  // Inclusive: the time counts once for every distinct function on the sample's stack.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const key = label(nodes.get(at) as ProfileNode);
    if (seen.has(key)) continue;
    seen.add(key);
    add(byInclusive, key, time);
  }
}

const share = (time: number) => `${((100 * time) / busy).toFixed(1).padStart(5)} %`;
const print = (title: string, map: Map<string, number>, limit: number) => {
  console.log(`\n${title}`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(`${share(time)}  ${key}`);
  }
};
console.log(`${(busy / 1000).toFixed(0)} ms sampled outside idle`);
print('Self time by package', byPackage, rows);
print('Self time by function', bySelf, rows);
print('Inclusive time by function', byInclusive, rows * 2);

/** `node_modules/ky/…` → `ky`; Node's own modules, the SDK's dist and V8's pseudo-frames by name. */
function packageOf({ callFrame: { functionName, url } }: ProfileNode): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage?.[1]) return inPackage[1];
  if (url.startsWith('node:internal/deps/undici')) return 'undici (Node fetch)';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/dist/')) return 'agentchat (dist)';
  if (url.includes('/bench/')) return 'bench';
  if (url.includes('/src/')) return 'agentchat (src)';
  return url;
}

function label({ callFrame: { functionName, url, lineNumber } }: ProfileNode): string {
  const where = url ? ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${where}`;
}
