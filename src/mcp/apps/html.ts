import { VIEWS, type ViewName } from './catalog.js';

/** The views' script and style, as built once for both (build-views.ts). */
export interface ViewAssets {
  readonly script: string;
  readonly style: string;
}

/**
 * A view's document: one self-contained page, its style in the head and its script after the
 * element it renders into, which names the view the script draws there. Both views share one
 * script, so that the package ships it once.
 */
export function viewHtml(view: ViewName, { script, style }: ViewAssets): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${VIEWS[view].title}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    `<main id="view" data-view="${view}" aria-live="polite"></main>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
