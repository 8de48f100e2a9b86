import { cut } from './agentchat-error.js';

/**
 * Reads `{"error":{"type","message","code"}}`, `{"message"}` or `{"error":"..."}` bodies; for
 * any other body (HTML from a proxy, plain text) it keeps a short, tag-free excerpt.
 */
export function readServerError(body: unknown): { message?: string; type?: string; code?: string } {
  if (typeof body === 'string') {
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text ? { message: cut(text) } : {};
  }
  if (typeof body !== 'object' || body === null) return {};
  const error = (body as { error?: unknown }).error;
  const source = typeof error === 'object' && error !== null ? error : body;
  const field = (name: string) => {
    const value = (source as Record<string, unknown>)[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const message = field('message') ?? (typeof error === 'string' ? error : undefined);
  const result: { message?: string; type?: string; code?: string } = {};
  if (message) result.message = cut(message);
  const type = field('type');
  if (type) result.type = type;
  const code = field('code');
  if (code) result.code = code;
  return result;
}
