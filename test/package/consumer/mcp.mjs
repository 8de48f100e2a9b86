// ESM host of mcp-scenario.cjs: `node mcp.mjs <baseUrl>` prints its result as one JSON line.
import * as mcpClient from '@modelcontextprotocol/client';
import * as sdk from 'agentchat';
import * as mcp from 'agentchat/mcp';
import scenario from './mcp-scenario.cjs';

const result = await scenario.runMcpScenario({ sdk, mcp, mcpClient }, process.argv[2]);
// Which file the package resolved to, proving the `import` condition picked the ESM build.
const entry = import.meta.resolve('agentchat/mcp').replace(/^.*\/node_modules\/agentchat\//, '');
console.log(JSON.stringify({ ...result, entry }));
