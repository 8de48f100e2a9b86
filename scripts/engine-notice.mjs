// Run by `npm install` in this repository (the `prepare` script), never by users of the package.
// When npm itself runs on a Node.js older than the one the repository's packages declare, npm
// prints an EBADENGINE warning per package; this says once what they mean.
const agent = process.env.npm_config_user_agent ?? '';
const npmNode = /\bnode\/v(\d+)\.\d+\.\d+/.exec(agent);
if (npmNode && Number(npmNode[1]) < 22) {
  console.log(
    `agentchat: npm ran on Node.js ${npmNode[0].slice(5)}, older than the ^22.12 the repository's packages ask for: the EBADENGINE warnings above concern that Node.js only, and are harmless. npm installed Node.js 22 with the rest (the "node" devDependency), and every npm script here (npm run demo, npm test) runs on it.`,
  );
}
