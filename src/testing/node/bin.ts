#!/usr/bin/env node
// `agentchat-mock`: the mock service over HTTP, for curl, browsers on other origins, and clients
// in any language. See runMockCli for the options.
import { isMissingPackage } from '../../internal/missing-package.js';

// Loaded only now, so that a missing optional peer is one line of advice, not a stack trace.
let cli: typeof import('./cli.js');
try {
  cli = await import('./cli.js');
} catch (error) {
  if (!isMissingPackage(error, 'msw')) throw error;
  console.error(
    'agentchat-mock: needs msw, an optional peer dependency of agentchat: npm install --save-dev msw',
  );
  process.exit(1);
}

// Listening for the stop signals before anything is printed: a supervisor may send one as soon as
// it reads the banner, and it must then find these handlers, not Node's default, which would
// exit at once without closing the server.
let stop: (() => void) | undefined;
let stopAsked = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAsked = true;
    stop?.();
  });
}

const outcome = await cli.runMockCli(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});

if (outcome.kind === 'exit') {
  process.exitCode = outcome.code;
} else {
  stop = () => {
    void outcome.server.close().then(() => console.log('mock service stopped'));
  };
  if (stopAsked) stop();
}
