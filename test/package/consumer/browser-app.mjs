// A browser app that uses the client, bundled with esbuild and opened in headless Chromium from
// the mock server's origin. It leaves its findings on `window.agentchatResult` for the test.
import * as sdk from 'agentchat';
import scenario from './scenario.cjs';

async function main() {
  const baseUrl = `${location.origin}/api`;
  let guard;
  try {
    new sdk.Client({ apiKey: 'sk_test_package', baseUrl });
  } catch (error) {
    guard = {
      isAgentChatError: error instanceof sdk.AgentChatError,
      namesOption: String(error.message).includes('dangerouslyAllowBrowser'),
    };
  }
  const result = await scenario.runScenario(sdk, baseUrl, 'chromium', {
    dangerouslyAllowBrowser: true,
  });
  return { guard, ...result };
}

main().then(
  (result) => {
    window.agentchatResult = result;
  },
  (error) => {
    window.agentchatResult = { error: String(error?.stack ?? error) };
  },
);
