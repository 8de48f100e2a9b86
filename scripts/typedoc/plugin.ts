/**
 * TypeDoc plugin for the documentation site (`npm run docs`, typedoc.json `plugin`): the guides
 * in docs/ become pages that read as well as on GitHub and in node_modules, with no markup of
 * TypeDoc's own in the Markdown.
 *
 * - A guide's page is named after its first heading ("Retries and idempotency"), not its file
 *   name ("retries"), and its address stays the file name (documents/retries.html).
 * - Inline code naming an export (`RateLimitError`, `startMockServer`, `agentchat/testing`) in a
 *   guide or in the README links to that export's reference page.
 * - Links to the front page point at index.html: TypeDoc writes them as the folder (`../`),
 *   which a browser shows as a file listing when the site is opened from disk.
 *
 * TypeDoc loads it with `import()`; Node runs it by stripping the types, so it uses erasable
 * TypeScript only.
 */
import {
  type Application,
  type CommentDisplayPart,
  Converter,
  type DocumentReflection,
  KindRouter,
  PageEvent,
  type ProjectReflection,
  type Reflection,
  ReflectionKind,
} from 'typedoc';

/** Addresses guides by their file: documents/<file name>.html. */
class GuideFileRouter extends KindRouter {
  override getIdealBaseName(reflection: Reflection): string {
    const file = reflection.isDocument()
      ? reflection.project.files.getReflectionPath(reflection)
      : undefined;
    if (!file) return super.getIdealBaseName(reflection);
    const name = file.slice(file.lastIndexOf('/') + 1).replace(/\.md$/, '');
    return `documents/${name}`;
  }
}

/** The text of a document's first level-one heading, inline code marks dropped. */
function firstHeading(content: readonly CommentDisplayPart[]): string | undefined {
  const text = content.map((part) => part.text).join('');
  return text
    .match(/^# (.+)$/m)?.[1]
    ?.replaceAll('`', '')
    .trim();
}

/**
 * The reflections inline code may link to, by the name a reader writes: each entry point by its
 * import path, and each of its exports by name.
 */
function linkableExports(project: ProjectReflection): Map<string, Reflection> {
  const byName = new Map<string, Reflection>();
  for (const module of project.children ?? []) {
    byName.set(module.name, module);
    for (const child of module.children ?? []) byName.set(child.name, child);
  }
  return byName;
}

/**
 * Turns inline code that is exactly an export's name into a link to its page. Code already in a
 * link's text, or in a heading, stays as it is: a link inside either would break it.
 */
function linkExports(
  content: readonly CommentDisplayPart[],
  exports: ReadonlyMap<string, Reflection>,
): CommentDisplayPart[] {
  return content.map((part, index) => {
    if (part.kind !== 'code') return part;
    const target = exports.get(part.text.replace(/^`|`$/g, ''));
    if (!target) return part;
    const before = content
      .slice(0, index)
      .map((previous) => previous.text)
      .join('');
    const line = before.slice(before.lastIndexOf('\n') + 1);
    const inLinkText = before.lastIndexOf('[') > before.lastIndexOf(']');
    if (/^#{1,6}\s/.test(line) || inLinkText) return part;
    return { kind: 'inline-tag', tag: '@linkcode', text: target.name, target };
  });
}

/** Entry point TypeDoc calls when it loads the plugin. */
export function load(app: Application): void {
  app.renderer.defineRouter('guide-files', GuideFileRouter);

  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, document: DocumentReflection) => {
    const title = firstHeading(document.content);
    if (title) document.name = title;
  });

  // After TypeDoc has resolved the links written in the Markdown (priority below its own).
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      const project = context.project;
      const exports = linkableExports(project);
      if (project.readme) project.readme = linkExports(project.readme, exports);
      for (const reflection of project.getReflectionsByKind(ReflectionKind.Document)) {
        if (reflection.isDocument()) reflection.content = linkExports(reflection.content, exports);
      }
    },
    -100,
  );

  app.renderer.on(PageEvent.END, (page) => {
    if (page.contents === undefined) return;
    page.contents = page.contents.replace(
      /href="((?:\.\.\/)+|\.\/)(#[^"]*)?"/g,
      (_match, up: string, anchor = '') => `href="${up === './' ? '' : up}index.html${anchor}"`,
    );
  });
}
