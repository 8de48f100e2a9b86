// The client options every framework scenario calls the mock with: the mock at `baseUrl`, no
// retries, and a fetch that records each request's abort signal in `signals`, which the scenarios
// read to see a run's abort reach the request in flight. Copied into each consumer project by
// test/helpers/framework-consumer.ts.

/** `{ clientOptions, signals }`: `options` go over the defaults, but not over the fetch. */
export function watchedClientOptions(apiKey, baseUrl, options = {}) {
  const signals = [];
  const clientOptions = {
    apiKey,
    baseUrl,
    maxRetries: 0,
    ...options,
    fetch: (input, init) => {
      signals.push(init?.signal ?? input.signal);
      return fetch(input, init);
    },
  };
  return { clientOptions, signals };
}
