// Run by `npm install` in this repository (the `prepare` script), never by users of the package:
// says once what npm's own warnings about this machine's tools mean, and which npm to use.
const agent = process.env.npm_config_user_agent ?? '';
const npmNode = /\bnode\/v(\d+)\.\d+\.\d+/.exec(agent);
if (npmNode && Number(npmNode[1]) < 22) {
  console.log(
    `agentchat: npm ran on Node.js ${npmNode[0].slice(5)}, older than the ^22.12 the repository's packages ask for: the EBADENGINE warnings above concern that Node.js only, and are harmless. npm installed Node.js 22 with the rest (the "node" devDependency), and every npm script here (npm run demo, npm test) runs on it.`,
  );
}
// npm 10 writes package-lock.json without the `libc` field npm 11 gives platform packages, so
// each would rewrite the other's lockfile (CONTRIBUTING.md).
const npmVersion = /\bnpm\/(\d+)\./.exec(agent);
if (npmVersion && Number(npmVersion[1]) < 11) {
  console.log(
    `agentchat: this repository's package-lock.json is kept by npm 11, and npm ${npmVersion[1]} rewrites it: use npm 11 (npm install --global npm@11) so that npm install leaves it unchanged.`,
  );
}
