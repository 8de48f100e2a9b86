import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The test suite of an application that uses agentchat. `agentchat` resolves through the repo's
// tsconfig `paths` to src/, as the published package would resolve to dist/.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { tsconfigPaths: true },
  test: {
    name: 'examples',
    environment: 'node',
    include: ['**/*.test.ts'],
  },
});
