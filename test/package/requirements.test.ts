import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bunVersion,
  denoVersion,
  miniflareVersion,
  nodeEnginesRange,
  nodeVersions,
  olderTypeScriptVersion,
  workerCompatibilityDate,
  workerdVersion,
} from '../../scripts/runtimes/matrix.js';

const repo = resolve(import.meta.dirname, '../..');

/** README's "Requirements" section, up to the next heading. */
async function requirementsSection(): Promise<string> {
  const readme = await readFile(resolve(repo, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Requirements\n');
  expect(start).toBeGreaterThan(-1);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

describe('what the package promises', () => {
  it('states in package.json engines exactly the Node.js lines the matrix proves', async () => {
    const manifest = JSON.parse(await readFile(resolve(repo, 'package.json'), 'utf8')) as {
      engines: Record<string, string>;
    };
    expect(manifest.engines).toEqual({ node: nodeEnginesRange() });
    expect(nodeEnginesRange()).toBe('^22.12.0 || ^24.0.0 || ^26.0.0');
  });

  it('lists in README every runtime version the matrix proves, and the engines range', async () => {
    const section = await requirementsSection();
    const typescript = JSON.parse(
      await readFile(resolve(repo, 'node_modules/typescript/package.json'), 'utf8'),
    ) as { version: string };
    const majorMinor = (version: string) => version.split('.').slice(0, 2).join('.');

    expect(section).toContain(nodeVersions.join(', '));
    expect(section).toContain(nodeEnginesRange());
    expect(section).toMatch(new RegExp(`Bun +\\| ${bunVersion} `));
    expect(section).toMatch(new RegExp(`Deno +\\| ${denoVersion} `));
    expect(section).toContain(`workerd ${workerdVersion} (miniflare ${miniflareVersion})`);
    expect(section).toContain(`compatibility date ${workerCompatibilityDate} or later`);
    expect(section).toContain(
      `${majorMinor(typescript.version)} and ${majorMinor(olderTypeScriptVersion)}`,
    );
  });
});
