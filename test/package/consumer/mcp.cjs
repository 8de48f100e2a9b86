// CommonJS host of mcp-scenario.cjs: `node mcp.cjs <baseUrl>` prints its result as one JSON line.
const mcpClient = require('@modelcontextprotocol/client');
const sdk = require('agentchat');
const mcp = require('agentchat/mcp');
const { runMcpScenario } = require('./mcp-scenario.cjs');

runMcpScenario({ sdk, mcp, mcpClient }, process.argv[2]).then(
  (result) => {
    // Which file the package resolved to, proving the `require` condition picked the CJS build.
    const entry = require.resolve('agentchat/mcp').replace(/^.*\/node_modules\/agentchat\//, '');
    console.log(JSON.stringify({ ...result, entry }));
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
