// A Cloudflare Worker that runs the scenario: GET /?baseUrl=<mock>&label=<label> answers with the
// scenario's result as JSON. Bundled with esbuild before it is handed to workerd.
import * as sdk from 'agentchat';
import scenario from './scenario.cjs';

export default {
  async fetch(request) {
    const params = new URL(request.url).searchParams;
    try {
      return Response.json(
        await scenario.runScenario(sdk, params.get('baseUrl'), params.get('label')),
      );
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
