/**
 * `@modelcontextprotocol/node`'s adapter from a web-standard handler to a node:http listener, as
 * `toNodeListener` loads it: through `#node-adapter` (package.json `imports`), so that Node.js gets
 * this module and any other runtime the stub beside it (see tsup.config.ts's Node.js-only entries).
 */
export { toNodeHandler } from '@modelcontextprotocol/node';
