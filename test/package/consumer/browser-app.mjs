// A browser app that uses the client, bundled with esbuild and opened in headless Chromium on
// another origin than the mock server's, whose base URL it reads from `?baseUrl=`. It leaves its
// findings on `window.agentchatResult` for the test.
import * as sdk from 'agentchat';
import scenario from './scenario.cjs';

async function main() {
  const baseUrl = new URLSearchParams(location.search).get('baseUrl');
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
