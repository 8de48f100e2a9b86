#!/usr/bin/env node
// `agentchat-mock`: the mock service over HTTP, for curl, browsers on other origins, and clients
// in any language. See runMockCli for the options.
// cli.ts loads msw only to serve, and says in one line when it is missing (--help and --version
// need none).
import { runMockCli } from './cli.js';

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

const outcome = await runMockCli(process.argv.slice(2), {
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
