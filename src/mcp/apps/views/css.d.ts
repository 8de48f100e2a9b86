/** A style sheet the views import: esbuild bundles it into the views' one style (build-views.ts). */
declare module '*.css';
