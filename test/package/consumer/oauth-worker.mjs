// A Cloudflare Worker that runs oauth-scenario.mjs: GET /?issuer=&clientId=&keyId=&pem=&jwk=
// answers with its result as JSON. Bundled with esbuild before it is handed to workerd.
import * as sdk from 'agentchat';
import { runOAuthScenario } from './oauth-scenario.mjs';

export default {
  async fetch(request) {
    const params = Object.fromEntries(new URL(request.url).searchParams);
    try {
      return Response.json(await runOAuthScenario(sdk, params));
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
