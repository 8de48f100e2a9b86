/**
 * The front's own pages: the consent page naming the host (its name and redirect URI) and the
 * scopes it asks for, with `Allow` and `Deny`, and the error page. A proxy signing everyone in
 * with one upstream client id must ask this of the person itself (the MCP security best
 * practices: confused deputy). The form carries a one-time token the front checks (CSRF), and
 * no page of the front may be framed (clickjacking).
 */

/** What the consent page names. */
export interface ConsentDetails {
  readonly clientName: string | undefined;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  /** Where the form posts. */
  readonly action: string;
  /** The one-time token the form posts back. */
  readonly csrfToken: string;
  /** The identity provider the person signs in at next, by its issuer. */
  readonly upstream: string | undefined;
}

/**
 * Headers for every page of the front: no framing by any origin, no script, nothing cached, no
 * referrer (the URLs hold one-time values).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** What each scope lets a host do, as the person reads it. */
const SCOPE_MEANINGS: Readonly<Record<string, string>> = {
  offline_access: 'stay connected without asking you again',
};

/** The consent page's HTML. */
export function consentPage(details: ConsentDetails): string {
  const name = details.clientName ?? details.clientId;
  const scopes = details.scopes
    .map((scope) => {
      const meaning = SCOPE_MEANINGS[scope];
      return `<li><code>${escapeHtml(scope)}</code>${meaning ? `: ${escapeHtml(meaning)}` : ''}</li>`;
    })
    .join('');
  return page(
    `Allow ${name}?`,
    `<h1>Allow <span id="client-name">${escapeHtml(name)}</span> to use Project and Agent Chat as you?</h1>
<p>Client: <code id="client-id">${escapeHtml(details.clientId)}</code></p>
<p>It will receive your access at <code id="redirect-uri">${escapeHtml(details.redirectUri)}</code>.</p>
<p>It asks for:</p><ul id="scopes">${scopes || '<li>no scope</li>'}</ul>
${details.upstream ? `<p>You will then sign in at <code>${escapeHtml(details.upstream)}</code>.</p>` : ''}
<form method="post" action="${escapeHtml(details.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(details.csrfToken)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** The error page: what went wrong, never a redirect to a client. */
export function errorPage(title: string, description: string | undefined): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>${description ? `<p id="error-description">${escapeHtml(description)}</p>` : ''}`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width"><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}button{margin-right:1rem;padding:.5rem 1.5rem}</style>
</head><body>${body}</body></html>`;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}
