#!/usr/bin/env node
// `agentchat-mock`: the mock service over HTTP, for curl, browsers on other origins, and clients
// in any language. See runMockCli for the options.
import { runMockCli } from './cli.js';

const outcome = await runMockCli(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});

if (outcome.kind === 'exit') {
  process.exitCode = outcome.code;
} else {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void outcome.server.close().then(() => console.log('mock service stopped'));
    });
  }
}
