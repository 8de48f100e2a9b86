/**
 * An MCP host that signs a person in through a browser, as Claude's or ChatGPT's connectors do:
 * the official MCP client's OAuth provider interface, kept in memory, with a redirect URI served
 * on 127.0.0.1; and the person's clicks in real Chromium (Debian's, through playwright): Allow
 * at the front's consent page, the login and consent pages of the upstream identity provider.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { type Browser, chromium, type Page } from 'playwright';
import { chromiumLaunchOptions } from '../../vitest.config.js';

/** Debian's Chromium, as the browser tests launch it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ ...chromiumLaunchOptions, headless: true });
}

/** The host's OAuth state, in memory, and where it was sent to sign in. */
export class BrowserHost implements OAuthClientProvider {
  clientInfo: OAuthClientInformationMixed | undefined;
  savedTokens: OAuthTokens | undefined;
  verifier = '';
  /** The authorization URLs the client sent the person to, in order. */
  readonly authorizationUrls: URL[] = [];

  /** A Client ID Metadata Document's URL, when the host is identified by one. */
  clientMetadataUrl?: string;

  constructor(
    readonly redirectUrl: string,
    options: { clientMetadataUrl?: string; scope?: string } = {},
  ) {
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
    this.scope = options.scope ?? 'agentchat:read agentchat:write';
  }

  readonly scope: string;

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Browser Host',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: this.scope,
    };
  }
  clientInformation() {
    return this.clientInfo;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.clientInfo = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A redirect URI on 127.0.0.1 that answers anything with a short page. */
export async function startRedirectTarget(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Signed in; back to the app.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, server };
}

/**
 * Registers a public client (RFC 7591) named `clientName` at the front at `origin`, redirecting to
 * `redirectUri`, with `extraMetadata` added (such as its `scope`). Resolves with the answer's status and the client ID it issued.
 */
export async function registerPublicClient(
  origin: string,
  redirectUri: string,
  clientName = 'Test Host',
  extraMetadata: Record<string, unknown> = {},
): Promise<{ status: number; clientId: string }> {
  const response = await fetch(`${origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extraMetadata,
    }),
  });
  const { client_id: clientId } = (await response.json()) as { client_id: string };
  return { status: response.status, clientId };
}

/**
 * The front's authorization URL for a public client asking for `agentchat:read`, with RFC 7636's
 * example S256 challenge: for a browser to start a sign-in at, or a request the front must refuse.
 */
export function authorizationUrl(origin: string, clientId: string, redirectUri: string): URL {
  const url = new URL(`${origin}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'agentchat:read',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

/** What the person does at each page. */
export interface PersonChoices {
  /** How long each page may take to lead to the next, in milliseconds (default 10 s). */
  readonly stepTimeoutMs?: number;
  /** At the front's consent page. */
  readonly decision?: 'Allow' | 'Deny';
  /** The login typed at the upstream. */
  readonly login?: string;
  /** At the upstream's login page: sign in (the default), or follow its Cancel link. */
  readonly upstream?: 'sign in' | 'cancel';
  /**
   * How the host sends the person to the front's authorization URL: a link (`GET`, the default),
   * or a form posting its parameters (`POST`, which OpenID Connect allows as well).
   */
  readonly method?: 'GET' | 'POST';
  /** What the person looks at on the front's consent page, before deciding. */
  readonly atConsent?: (page: Page) => Promise<void>;
}

/**
 * The person, from `authorizationUrl` to the host's redirect URI: the front's consent page (when
 * it shows), the upstream's login and consent pages (when they show). Resolves with the URL the
 * browser came back to.
 */
export async function signInAsPerson(
  page: Page,
  authorizationUrl: URL,
  redirectUrl: string,
  choices: PersonChoices = {},
): Promise<URL> {
  await openAuthorization(page, authorizationUrl, choices.method ?? 'GET');
  for (let step = 0; step < 6; step++) {
    const url = new URL(page.url());
    if (url.href.startsWith(redirectUrl)) break;
    const decision = page.getByRole('button', { name: choices.decision ?? 'Allow' });
    if (url.hostname === '127.0.0.1' && (await decision.count()) > 0) {
      await choices.atConsent?.(page);
      await Promise.all([
        page.waitForURL((next) => next.href !== url.href, {
          timeout: choices.stepTimeoutMs ?? 10_000,
        }),
        decision.click(),
      ]);
    } else if (
      choices.upstream === 'cancel' &&
      (await page.locator('input[name="login"]').count())
    ) {
      await Promise.all([
        page.waitForURL((next) => next.href !== url.href, {
          timeout: choices.stepTimeoutMs ?? 10_000,
        }),
        page.getByRole('link', { name: '[ Cancel ]' }).click(),
      ]);
    } else if (await page.locator('input[name="login"]').count()) {
      await page.fill('input[name="login"]', choices.login ?? 'alice');
      await page.fill('input[name="password"]', 'correct horse');
      await Promise.all([
        page.waitForURL((next) => next.href !== url.href, {
          timeout: choices.stepTimeoutMs ?? 10_000,
        }),
        page.getByRole('button', { name: 'Sign-in' }).click(),
      ]);
    } else if (await page.getByRole('button', { name: 'Continue' }).count()) {
      await Promise.all([
        page.waitForURL((next) => next.href !== url.href, {
          timeout: choices.stepTimeoutMs ?? 10_000,
        }),
        page.getByRole('button', { name: 'Continue' }).click(),
      ]);
    } else {
      throw new Error(`Stuck at ${url.href}: ${await page.locator('body').textContent()}`);
    }
  }
  const url = new URL(page.url());
  if (!url.href.startsWith(redirectUrl)) {
    throw new Error(`Stuck at ${url.href}: ${await page.locator('body').textContent()}`);
  }
  return url;
}

/**
 * Opens `authorizationUrl` in `page`: followed as a link, or, for `POST`, its query sent as the
 * form body of a page of the host's own (about:blank, so no CSP of the front's applies).
 */
async function openAuthorization(
  page: Page,
  authorizationUrl: URL,
  method: 'GET' | 'POST',
): Promise<void> {
  if (method === 'GET') {
    await page.goto(authorizationUrl.href);
    return;
  }
  const action = new URL(authorizationUrl.pathname, authorizationUrl.origin).href;
  const fields = [...authorizationUrl.searchParams];
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of fields) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action, fields },
  );
  await page.waitForURL((url) => url.href !== 'about:blank');
}
