// A Cloudflare Worker that runs ai-sdk-loop.mjs: GET /?baseUrl=<mock> answers with the tool
// results the model read, as JSON. Bundled with esbuild before it is handed to workerd.
import { runToolLoop } from './ai-sdk-loop.mjs';

export default {
  async fetch(request) {
    const baseUrl = new URL(request.url).searchParams.get('baseUrl');
    try {
      return Response.json(await runToolLoop({ apiKey: 'sk_worker', baseUrl }));
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
