/**
 * The front's own pages: the consent page, where a person decides whether to trust a host, and
 * the error page. A proxy signing everyone in with one upstream client id must ask this of the
 * person itself (the MCP security best practices: confused deputy). The consent page names the
 * host as it registered itself, marked unverified (a Client ID Metadata Document's host is the
 * one thing checked), shows where the access goes, and says in words what each scope allows.
 * The form carries a one-time token the front checks (CSRF), and no page may be framed
 * (clickjacking).
 *
 * Every value shown comes from someone the front does not trust (a client's metadata, a redirect
 * URI, an upstream's error): each is escaped, so markup shows as text, and its hidden characters
 * (bidirectional controls, zero-width and tag characters, line breaks: src/internal/hidden-characters.ts)
 * are shown as escapes such as `\u{202E}`, marked, so that nothing in it is invisible. What a
 * client chose (its name, client id, redirect URI, hosts, scopes) is also isolated (`<bdi>`), so
 * that no right-to-left text in it moves the page's own words around it; its name is shown up to
 * {@link MAX_NAME_SHOWN} characters, with how many more there are. The pages load nothing: one
 * stylesheet inline, allowed by its hash, no script, no image, no font.
 */
import { createHash } from 'node:crypto';
import { showHiddenCharacters } from '../../internal/hidden-characters.js';

/** The scope names the front's tools need, by what they allow. */
export interface ScopeNames {
  /** The scope of the tools that only read (`get_project`), as tokens carry it. */
  readonly read: string;
  /** The scope of the tools that change things (`create_project`, `send_message`). */
  readonly write: string;
}

/** What the consent page names. */
export interface ConsentDetails {
  readonly clientName: string | undefined;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  /** What the tools' scopes are called at this front, to say what each allows. */
  readonly scopeNames: ScopeNames;
  /** Where the form posts. */
  readonly action: string;
  /** The one-time token the form posts back. */
  readonly csrfToken: string;
  /** The identity provider the person signs in at next, by its issuer. */
  readonly upstream: string | undefined;
}

/**
 * The scope names of the front's tool scopes as the handler lists them: reading first, then
 * writing (`ToolScopes.supported`), one name when both are the same.
 *
 * @example
 * ```ts
 * scopeNamesOf(['agentchat:read', 'agentchat:write']); // { read: 'agentchat:read', write: 'agentchat:write' }
 * ```
 */
export function scopeNamesOf(toolScopes: readonly string[]): ScopeNames {
  return { read: toolScopes[0] ?? '', write: toolScopes.at(-1) ?? '' };
}

/** The pages' one stylesheet: light and dark, AA contrast, from 320 px wide. */
const STYLE = `
:root{color-scheme:light dark;--bg:#eef1f5;--card:#fff;--text:#1a1f26;--muted:#4a5361;--line:#c9d0da;--accent:#1d4fa3;--on-accent:#fff;--focus:#1d4fa3;--warn-bg:#fff1c9;--warn:#6b4200;--ok-bg:#ddf3e4;--ok:#15592c;--code-bg:#eef1f5}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--card:#1a1f26;--text:#e9ecf1;--muted:#b3bcc8;--line:#3a4350;--accent:#9cc0ff;--on-accent:#0b1730;--focus:#9cc0ff;--warn-bg:#3b2c00;--warn:#ffd77a;--ok-bg:#0e3320;--ok:#94e2ad;--code-bg:#262c35}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem}
@media (max-width:40rem){body{background:var(--card)}main{margin:0;border:0;border-radius:0;padding:1rem}}
.product{margin:0 0 1rem;font-weight:600;color:var(--muted);font-size:.9rem;letter-spacing:.02em}
h1{font-size:1.4rem;line-height:1.3;margin:0 0 .75rem;overflow-wrap:anywhere}
h2{font-size:1rem;margin:1.25rem 0 .5rem}
p{margin:.5rem 0}
time{white-space:nowrap}
code{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code-bg);padding:.05rem .3rem;border-radius:.25rem;overflow-wrap:anywhere}
.badge{display:inline-block;font-size:.8rem;font-weight:700;padding:.1rem .5rem;border-radius:1rem;margin-right:.15rem;white-space:nowrap}
.unverified,.unknown{background:var(--warn-bg);color:var(--warn)}
.verified{background:var(--ok-bg);color:var(--ok)}
.destination{border:2px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0}
.destination h2{margin:0;font-size:.9rem;font-weight:600;color:var(--muted)}
.host{font-size:1.5rem;font-weight:700;margin:.25rem 0;overflow-wrap:anywhere}
.muted{color:var(--muted);font-size:.9rem}
ul{padding-left:1.25rem;margin:.25rem 0}
li{margin:.35rem 0}
li code{font-size:.8em;color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0 1rem}
button{font:inherit;font-weight:600;min-height:2.75rem;min-width:8rem;padding:.5rem 1.5rem;border-radius:.5rem;border:2px solid var(--accent);background:var(--card);color:var(--accent);cursor:pointer;flex:1 1 8rem}
button.primary{background:var(--accent);color:var(--on-accent)}
button:focus-visible{outline:3px solid var(--focus);outline-offset:3px}
.hidden-char{font:.8em/1 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;border:1px dashed currentColor;border-radius:.2rem;padding:0 .15rem;margin:0 .1rem;unicode-bidi:isolate;direction:ltr}
.more{color:var(--muted);font-size:.8em;font-weight:400}
`.trim();

/** The stylesheet's hash, which is all the pages' Content-Security-Policy lets in. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * Headers for every page of the front: no framing by any origin, nothing loaded but the inline
 * stylesheet, no script, nothing cached, no referrer (the URLs hold one-time values).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * The most characters (code points) of a client's name the pages show; the rest is counted, so
 * that a name cannot push the page's own words out of sight.
 *
 * @example
 * ```ts
 * consentPage({ ...details, clientName: 'x'.repeat(500) }); // shows 120 x, then "(380 more characters)"
 * ```
 */
export const MAX_NAME_SHOWN = 120;

/**
 * The consent page's HTML.
 *
 * @example
 * ```ts
 * const html = consentPage({ clientName: 'Claude', clientId, redirectUri, scopes, scopeNames, action, csrfToken, upstream: undefined });
 * ```
 */
export function consentPage(details: ConsentDetails): string {
  const name = details.clientName?.trim() || details.clientId;
  const shownName = cutName(name);
  const verifiedHost = metadataDocumentHost(details.clientId);
  const identity =
    verifiedHost === undefined
      ? `<p id="client-identity"><span class="badge unverified">Unverified</span> The application chose this name itself; nobody has checked it.</p>`
      : `<p id="client-identity"><span class="badge verified">Verified host</span> The application is published at <strong id="client-host">${chosen(verifiedHost)}</strong>. It chose its name itself.</p>`;
  const scopes = details.scopes.flatMap((scope) => scopeItems(scope, details.scopeNames));
  const more =
    shownName.more === 0
      ? ''
      : ` <span class="more" id="client-name-more">(${shownName.more.toLocaleString('en')} more characters)</span>`;
  return page(
    // A title holds no markup: the name is isolated there by Unicode's own first-strong
    // isolate and its pop (U+2068, U+2069), which is what `<bdi>` does in the body.
    `Allow \u2068${showHiddenCharacters(shownName.text)}${shownName.more > 0 ? '…' : ''}\u2069?`,
    `<h1>Allow <bdi id="client-name">${text(shownName.text)}</bdi>${more} to use Project and Agent Chat as you?</h1>
${identity}
<section class="destination" aria-labelledby="destination-title">
<h2 id="destination-title">Your access will be sent to</h2>
<p class="host" id="redirect-host">${chosen(destinationOf(details.redirectUri).host)}</p>
<p class="muted">${text(destinationOf(details.redirectUri).where)} Full address: <code id="redirect-uri">${chosen(details.redirectUri)}</code></p>
</section>
<section aria-labelledby="scopes-title">
<h2 id="scopes-title">It will be able to</h2>
<ul id="scopes">${scopes.join('') || '<li>Nothing more than knowing you signed in</li>'}</ul>
</section>
${details.upstream ? `<p>Next, you sign in at <strong id="upstream-host">${text(hostOf(details.upstream))}</strong>.</p>` : ''}
<p class="muted">Allow only if you started this in an application you trust, and the address above is its own.</p>
<form method="post" action="${escapeHtml(details.action)}" class="actions">
<input type="hidden" name="csrf" value="${escapeHtml(details.csrfToken)}">
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="muted">Client ID: <code id="client-id">${chosen(details.clientId)}</code></p>`,
  );
}

/**
 * The error page: what went wrong, what the person can do, and what to tell whoever runs the
 * server (`code`, the upstream's or the engine's error code, when there is one). Never a redirect
 * to a client, never a stack. The description may quote what a client or an upstream sent: its
 * hidden characters are shown, and the code is isolated.
 *
 * @example
 * ```ts
 * const html = errorPage('The sign-in was refused', 'The redirect URI is not registered.', 'invalid_request');
 * ```
 */
export function errorPage(title: string, description?: string, code?: string): string {
  const now = new Date();
  const time = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const tell =
    code === undefined
      ? `what this page says, and the time: <time datetime="${now.toISOString()}">${time}</time>.`
      : `the code <code id="error-code">${chosen(code)}</code> and the time: <time datetime="${now.toISOString()}">${time}</time>.`;
  return page(
    showHiddenCharacters(title),
    `<h1>${text(title)}</h1>
${description ? `<p id="error-description">${text(description)}</p>` : ''}
<section aria-labelledby="next-title">
<h2 id="next-title">What you can do</h2>
<p>Go back to the application you came from and connect again. It was given no access this time.</p>
<p>If this happens again, tell whoever runs this server ${tell}</p>
</section>`,
  );
}

/** A page: `title` is plain text whose hidden characters the caller has shown or placed. */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Project and Agent Chat</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark">
<style>${STYLE}</style>
</head><body><main>
<p class="product">Project and Agent Chat</p>
${body}
</main></body></html>`;
}

/**
 * A Client ID Metadata Document client's host: its client id is the https URL (with a path) the
 * front fetched its metadata from, so that host is checked. A registered client's id is one the
 * engine made, never a URL.
 */
function metadataDocumentHost(clientId: string): string | undefined {
  const url = URL.parse(clientId);
  return url?.protocol === 'https:' && url.pathname !== '/' ? url.host : undefined;
}

/** Where a redirect URI sends the access, as the person reads it. */
function destinationOf(redirectUri: string): { host: string; where: string } {
  const url = URL.parse(redirectUri);
  if (url === null) return { host: redirectUri, where: '' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { host: url.protocol, where: `An app on this device that opens ${url.protocol} links.` };
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return {
    host: url.host,
    where: loopback ? 'A program on this computer.' : 'A website.',
  };
}

function hostOf(issuer: string): string {
  return URL.parse(issuer)?.host || issuer;
}

/** A scope's lines in the list: what it allows, in words, then its name. */
function scopeItems(scope: string, names: ScopeNames): string[] {
  const named = (meaning: string) => `<li>${text(meaning)} <code>${chosen(scope)}</code></li>`;
  const items: string[] = [];
  if (scope === names.read) items.push(named('Read your projects'));
  if (scope === names.write) items.push(named('Create projects and send messages to their agents'));
  if (scope === 'offline_access') items.push(named('Stay signed in'));
  if (scope === 'openid') items.push(named('Know which account you signed in with'));
  if (items.length > 0) return items;
  return [
    `<li><span class="badge unknown">Unknown</span> <code>${chosen(scope)}</code>: a permission this server does not describe</li>`,
  ];
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `value` escaped for an attribute or a title: markup as text. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** `value` as an element's text: markup as text, each hidden character shown as its marked escape. */
function text(value: string): string {
  return showHiddenCharacters(
    escapeHtml(value),
    (shownAs) => `<span class="hidden-char">${shownAs}</span>`,
  );
}

/** A value a client chose, as an element's text isolated from the page's own words. */
function chosen(value: string): string {
  return `<bdi>${text(value)}</bdi>`;
}

/** A name cut to {@link MAX_NAME_SHOWN} code points, and how many more it has. */
function cutName(name: string): { text: string; more: number } {
  const points = [...name];
  return points.length <= MAX_NAME_SHOWN
    ? { text: name, more: 0 }
    : { text: points.slice(0, MAX_NAME_SHOWN).join(''), more: points.length - MAX_NAME_SHOWN };
}
