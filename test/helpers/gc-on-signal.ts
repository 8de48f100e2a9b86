/**
 * Loaded into a server process under test (`node --expose-gc --import tsx --import <this file>`):
 * on SIGUSR2 it runs a full garbage collection and then says so on standard error, so that a
 * test reads the memory the process keeps rather than garbage the collector has not reached yet.
 * The server itself is untouched.
 */
process.on('SIGUSR2', () => {
  const { gc } = globalThis as { gc?: () => void };
  gc?.();
  process.stderr.write('gc-on-signal: collected\n');
});
