/** How much each measurement does: the full run, and the short smoke run CI makes. */
export interface BenchConfig {
  overhead: { warmup: number; samples: number; batch: number };
  allocation: { warmup: number; calls: number };
  sequential: { warmup: number; samples: number };
  burst: { requests: number; concurrency: number; rounds: number; warmup: number };
  /** Bursts against a server that waits `latencyMs` before each answer, as a real one would. */
  realistic: {
    latencyMs: number;
    requests: number;
    concurrency: number;
    rounds: number;
    warmup: number;
  };
  heap: { requests: number; warmup: number };
  coldImport: { runs: number };
  /** MCP tool calls through createMcpHttpHandler, per mode: batches of `batch`, `rounds` of them. */
  mcpAuth: { warmup: number; rounds: number; batch: number };
}

export const FULL: BenchConfig = {
  // A batch of 1,000 calls allocates tens of MiB, so every batch spans several young-generation
  // collections and carries its share of them; batches of 100 either did or did not, and the
  // median fell on one side or the other from run to run.
  overhead: { warmup: 3, samples: 30, batch: 1000 },
  allocation: { warmup: 2000, calls: 20_000 },
  sequential: { warmup: 300, samples: 2000 },
  burst: { requests: 4000, concurrency: 64, rounds: 8, warmup: 1 },
  // 16 in flight at 20 ms each is at most 800 requests a second: a burst takes about half a
  // second, short enough for many rounds, whose paired ratios outvote a round another process hit.
  realistic: { latencyMs: 20, requests: 400, concurrency: 16, rounds: 16, warmup: 1 },
  // For the first few thousand requests V8 is still compiling and optimising, and code space grows
  // even for raw fetch. After that the heap of a client that keeps nothing is about flat.
  heap: { requests: 10_000, warmup: 4000 },
  coldImport: { runs: 20 },
  // A call costs the MCP server a millisecond or two of CPU. Short batches (50 calls, a few
  // young-generation collections each) and many rounds: the modes compared in a round run within
  // a second or so of each other, so that a change in the machine's load hits them alike; 20
  // rounds of 200 calls on a busy machine put 0.3 ms between differences that should add up.
  mcpAuth: { warmup: 4, rounds: 60, batch: 50 },
};

/** Enough to see every figure and catch a broken benchmark; too few samples to judge by. */
export const SMOKE: BenchConfig = {
  overhead: { warmup: 1, samples: 5, batch: 300 },
  allocation: { warmup: 300, calls: 2000 },
  sequential: { warmup: 30, samples: 150 },
  burst: { requests: 1000, concurrency: 64, rounds: 2, warmup: 0 },
  realistic: { latencyMs: 20, requests: 160, concurrency: 16, rounds: 1, warmup: 0 },
  heap: { requests: 600, warmup: 300 },
  coldImport: { runs: 3 },
  mcpAuth: { warmup: 1, rounds: 3, batch: 50 },
};
