import { loadViewAssets } from './assets.js';
import type { ViewName } from './catalog.js';
import { type ViewAssets, viewHtml } from './html.js';

let assets: Promise<ViewAssets> | undefined;

/** The self-contained HTML document of `view`, its assets loaded on first use. */
export async function viewDocument(view: ViewName): Promise<string> {
  assets ??= loadViewAssets();
  try {
    return viewHtml(view, await assets);
  } catch (error) {
    // Tried again on the next read rather than failing every read after one.
    assets = undefined;
    throw error;
  }
}
