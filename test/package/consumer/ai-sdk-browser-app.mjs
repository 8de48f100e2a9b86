// A browser page that runs ai-sdk-loop.mjs against the mock on another origin (`?baseUrl=`),
// bundled with esbuild and opened in headless Chromium; it leaves what the model read on
// `window.agentchatResult` for the test.
import { runToolLoop } from './ai-sdk-loop.mjs';

const baseUrl = new URLSearchParams(location.search).get('baseUrl');
runToolLoop({ apiKey: 'sk_test_package', baseUrl, dangerouslyAllowBrowser: true }).then(
  (result) => {
    window.agentchatResult = result;
  },
  (error) => {
    window.agentchatResult = { error: String(error?.stack ?? error) };
  },
);
