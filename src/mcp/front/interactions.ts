/**
 * The person's part of an authorization, where oidc-provider hands over (its interactions): the
 * consent page first, before anyone is sent upstream for a host they have not approved; then the
 * sign-in at the upstream identity provider; then back to oidc-provider, which issues the code.
 * A consent is remembered per person, client and redirect URI, with the scopes approved, so a
 * person signed in at the front is asked again for a new host, redirect URI or scope. Every
 * authorization comes here (provider.ts's `loadExistingGrant`): the engine's own grant, which
 * covers a client whatever its redirect URI, never answers one by itself.
 *
 * Routes: `GET /interaction/:uid` (the consent page), `POST /interaction/:uid/confirm` (Allow or
 * Deny, with the page's one-time token), `GET /oauth/callback` (the upstream's redirect), and
 * `GET /interaction/:uid/signed-in` (back under the interaction's cookie path, to finish).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { default as Provider } from 'oidc-provider';
import { consentPage, errorPage, PAGE_HEADERS, type ScopeNames } from './consent-page.js';
import type { FrontAdapter, FrontAdapterConstructor } from './options.js';
import { FRONT_TTL } from './provider.js';
import type { HostError, Upstream, UpstreamChecks, UpstreamOutcome } from './upstream.js';

/** The largest consent form read, in bytes: a token and a button. */
const MAX_FORM_BYTES = 4_096;

/** How long a remembered consent lasts, in seconds. */
const CONSENT_TTL_S = 90 * 24 * 3600;

/** What the front keeps of an interaction beside oidc-provider's record. */
interface FrontInteraction {
  csrf?: string;
  checks?: UpstreamChecks;
  approved?: Consent;
  accountId?: string;
  /** The upstream's error the host is to be told of, instead of a person signed in. */
  hostError?: HostError;
}

/** A person's approval of a host. */
interface Consent {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
}

/** What the routes need. */
export interface InteractionOptions {
  readonly provider: Provider;
  readonly adapter: FrontAdapterConstructor;
  readonly upstream: Upstream;
  readonly upstreamIssuer: string;
  /** The front's public origin, which the upstream redirects back to. */
  readonly issuer: string;
  /** What the tools' scopes are called here, for the consent page to say what each allows. */
  readonly scopeNames: ScopeNames;
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The node:http handler of the interaction routes, or `undefined` for another path.
 *
 * @example
 * ```ts
 * const route = interactionRoutes({ provider, adapter, upstream, upstreamIssuer, issuer, scopeNames });
 * const handle = route('/oauth/callback');
 * ```
 */
export function interactionRoutes(
  options: InteractionOptions,
): (pathname: string) => NodeHandler | undefined {
  const { provider, adapter: Store, upstream, upstreamIssuer, issuer, scopeNames } = options;
  const records = new Store('FrontInteraction');
  const states = new Store('FrontState');
  const consents = new Store('FrontConsent');
  const load = async (uid: string) =>
    ((await records.find(uid)) as FrontInteraction | undefined) ?? {};
  const save = (uid: string, record: FrontInteraction) =>
    records.upsert(uid, record as never, FRONT_TTL.Interaction);

  const showPage: NodeHandler = async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    const { uid, prompt, params, session } = details;
    const client = await provider.Client.find(String(params.client_id));
    if (client === undefined) return sendError(res, 400, 'Unknown client', undefined);
    const wanted = consentOf(client.clientId, params, prompt.details);
    const accountId = session?.accountId;
    if (prompt.name === 'consent' && accountId !== undefined) {
      const remembered = (await consents.find(consentKey(accountId, wanted))) as
        | Consent
        | undefined;
      if (covers(remembered, wanted)) return finishConsent(provider, req, res);
    }
    const csrfToken = randomBytes(32).toString('base64url');
    await save(uid, { ...(await load(uid)), csrf: csrfToken });
    send(
      res,
      200,
      consentPage({
        clientName: client.clientName,
        clientId: wanted.clientId,
        redirectUri: wanted.redirectUri,
        scopes: wanted.scopes,
        scopeNames,
        action: `/interaction/${uid}/confirm`,
        csrfToken,
        upstream: prompt.name === 'login' ? upstreamIssuer : undefined,
      }),
    );
  };

  const confirm: NodeHandler = async (req, res) => {
    if (req.method !== 'POST') return sendError(res, 405, 'Method not allowed', undefined);
    const details = await provider.interactionDetails(req, res);
    const { uid, prompt, params, session } = details;
    const form = await readForm(req);
    const record = await load(uid);
    if (
      form === undefined ||
      record.csrf === undefined ||
      !sameSecret(record.csrf, form.get('csrf') ?? '')
    ) {
      return sendError(
        res,
        403,
        'This form has expired',
        'Open the sign-in again from the application.',
      );
    }
    // One use: a second post of the same page is refused.
    delete record.csrf;
    if (form.get('decision') !== 'allow') {
      await records.destroy(uid);
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person denied the access.' },
        { mergeWithLastSubmission: false },
      );
    }
    const approved = consentOf(String(params.client_id), params, prompt.details);
    const accountId = session?.accountId;
    if (prompt.name === 'consent' && accountId !== undefined) {
      await remember(consents, accountId, approved);
      await records.destroy(uid);
      return finishConsent(provider, req, res);
    }
    const { url, checks } = await upstream.start();
    await save(uid, { ...record, approved, checks });
    await states.upsert(checks.state, { uid } as never, FRONT_TTL.Interaction);
    res.writeHead(303, { location: url.href, 'cache-control': 'no-store' }).end();
  };

  const callback: NodeHandler = async (req, res) => {
    const callbackUrl = new URL(req.url ?? '/', issuer);
    const state = callbackUrl.searchParams.get('state') ?? '';
    const entry = state === '' ? undefined : ((await states.find(state)) as { uid?: string });
    if (entry?.uid === undefined) {
      return sendError(
        res,
        400,
        'This sign-in has expired or was already used',
        'Open the sign-in again from the application.',
      );
    }
    await states.destroy(state);
    const record = await load(entry.uid);
    if (record.checks === undefined || record.approved === undefined) {
      return sendError(res, 400, 'This sign-in has expired', undefined);
    }
    let outcome: UpstreamOutcome;
    try {
      outcome = await upstream.finish(callbackUrl, record.checks);
    } catch (error) {
      await records.destroy(entry.uid);
      return sendError(
        res,
        502,
        // The page names no address: the person knows where they signed in, and a page may be shown
        // to anyone holding the link.
        'The sign-in at the identity provider was refused',
        `${(error as Error).message}. Nothing was issued; try again, or ask your administrator.`,
      );
    }
    if ('hostError' in outcome) {
      // Told to the host by oidc-provider, once back under the interaction's cookie path.
      await save(entry.uid, { hostError: outcome.hostError });
    } else {
      await remember(consents, outcome.subject, record.approved);
      await save(entry.uid, { accountId: outcome.subject });
    }
    res.writeHead(303, { location: `/interaction/${entry.uid}/signed-in` }).end();
  };

  const signedIn: NodeHandler = async (req, res) => {
    const { uid } = await provider.interactionDetails(req, res);
    const { accountId, hostError } = await load(uid);
    if (hostError !== undefined) {
      await records.destroy(uid);
      return provider.interactionFinished(
        req,
        res,
        {
          error: hostError,
          // What the host is told names no address of the front's identity provider either.
          error_description: `The sign-in at the identity provider ended with ${hostError}.`,
        },
        { mergeWithLastSubmission: false },
      );
    }
    if (accountId === undefined)
      return sendError(res, 400, 'This sign-in is not finished', undefined);
    await records.destroy(uid);
    // The consent prompt follows, answered by the consent just remembered.
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
  };

  return (pathname) => {
    if (pathname === '/oauth/callback') return guarded(callback);
    const match = pathname.match(/^\/interaction\/[\w-]+(\/confirm|\/signed-in)?$/);
    if (match === null) return undefined;
    return guarded(
      match[1] === '/confirm' ? confirm : match[1] === '/signed-in' ? signedIn : showPage,
    );
  };
}

/** Finishes a consent prompt with a grant of what the host asked and the person approved. */
async function finishConsent(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { grantId, params, session, prompt } = await provider.interactionDetails(req, res);
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const grant =
    (grantId === undefined ? undefined : await provider.Grant.find(grantId)) ??
    new provider.Grant({ accountId: session?.accountId, clientId: String(params.client_id) });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const savedId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: savedId } },
    { mergeWithLastSubmission: true },
  );
}

/** True when `remembered` approved the same client and redirect URI, and every scope wanted. */
function covers(remembered: Consent | undefined, wanted: Consent): boolean {
  return (
    remembered !== undefined &&
    remembered.clientId === wanted.clientId &&
    remembered.redirectUri === wanted.redirectUri &&
    wanted.scopes.every((scope) => remembered.scopes.includes(scope))
  );
}

async function remember(
  consents: FrontAdapter,
  accountId: string,
  consent: Consent,
): Promise<void> {
  await consents.upsert(consentKey(accountId, consent), consent as never, CONSENT_TTL_S);
}

/** Where a person's consent to a client at one redirect URI is kept. */
function consentKey(accountId: string, { clientId, redirectUri }: Consent): string {
  return JSON.stringify([accountId, clientId, redirectUri]);
}

/** A handler whose failures are an error page, never a stack trace or a redirect. */
function guarded(handler: NodeHandler): NodeHandler {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (res.headersSent) return void res.end();
      const name = (error as { name?: unknown })?.name;
      // oidc-provider's SessionNotFound and the like: the interaction is gone or not this browser's.
      const description =
        name === 'SessionNotFound'
          ? 'This sign-in has expired, or was opened in another browser. Open it again from the application.'
          : (error as Error).message;
      sendError(
        res,
        (error as { statusCode?: number }).statusCode ?? 400,
        'The sign-in failed',
        description,
      );
    }
  };
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, PAGE_HEADERS).end(html);
}

/** An error page; `code` is the upstream's or the engine's error code, for the operator. */
function sendError(
  res: ServerResponse,
  status: number,
  title: string,
  description: string | undefined,
  code?: string,
): void {
  send(res, status, errorPage(title, description, code));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The consent an authorization asks of a person: its client, redirect URI and scopes. The scopes
 * are those asked and, at the consent prompt, those the grant would carry (the engine's
 * `missing...` details: every scope, as no earlier grant is reused), so that a request naming
 * fewer scopes than it would get is never covered by a narrower approval.
 */
function consentOf(
  clientId: string,
  params: Record<string, unknown>,
  details: Record<string, unknown>,
): Consent {
  const { missingOIDCScope, missingResourceScopes } = details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const asked = String(params.scope ?? '').split(' ');
  const granted = [
    ...(missingOIDCScope ?? []),
    ...Object.values(missingResourceScopes ?? {}).flat(),
  ];
  return {
    clientId,
    redirectUri: String(params.redirect_uri),
    scopes: [...new Set([...asked, ...granted])].filter((scope) => scope !== ''),
  };
}
