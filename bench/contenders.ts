/**
 * The clients measured, each doing the same three calls against the same server and each
 * returning the parsed JSON body:
 *
 * - `fetch`: raw `fetch` + `res.json()`, the floor any client pays.
 * - `ky`: ky alone, with its defaults, the way an app calling the service by hand would use it.
 * - `ky+policy`: a bare ky instance with the SDK's options, hooks, retry policy and response
 *   schemas (see ky-policy.ts): the floor for an SDK built on ky.
 * - `agentchat`: this SDK, from the built dist.
 * - `openai`: openai-node's generic `client.get()` / `client.post()`, a peer SDK's request path.
 */

import ky from 'ky';
import OpenAI from 'openai';
import { Client } from '../dist/index.js';
import { createKyPolicyClient } from './ky-policy.js';

/** Names of the contenders, in report order. */
export const CONTENDER_NAMES = ['fetch', 'ky', 'ky+policy', 'agentchat', 'openai'] as const;
export type ContenderName = (typeof CONTENDER_NAMES)[number];

/** One client behind the three operations every contender performs. */
export interface Contender {
  readonly name: ContenderName;
  getProject(id: string): Promise<unknown>;
  createProject(params: { name: string; agentId: string }): Promise<unknown>;
  sendChat(projectId: string, message: string): Promise<unknown>;
}

/** Where the contenders send their requests. Every contender uses the global `fetch`. */
export interface Target {
  baseUrl: string;
  apiKey: string;
}

/** Builds one contender; each holds its own client instance, made once and reused. */
export function createContender(name: ContenderName, target: Target): Contender {
  switch (name) {
    case 'fetch':
      return rawFetch(target);
    case 'ky':
      return kyAlone(target);
    case 'ky+policy':
      return { name: 'ky+policy', ...createKyPolicyClient(target) };
    case 'agentchat':
      return agentchat(target);
    case 'openai':
      return openai(target);
  }
}

function rawFetch({ baseUrl, apiKey }: Target): Contender {
  const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  const send = async (path: string, init: RequestInit): Promise<unknown> => {
    const response = await fetch(baseUrl + path, init);
    if (!response.ok) throw new Error(`${init.method} ${path} answered ${response.status}`);
    return response.json();
  };
  return {
    name: 'fetch',
    getProject: (id) => send(`/v1/projects/${encodeURIComponent(id)}`, { method: 'GET', headers }),
    createProject: (params) =>
      send('/v1/projects', { method: 'POST', headers: jsonHeaders, body: JSON.stringify(params) }),
    sendChat: (projectId, message) =>
      send(`/v1/projects/${encodeURIComponent(projectId)}/chat`, {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify({ message }),
      }),
  };
}

function kyAlone({ baseUrl, apiKey }: Target): Contender {
  const api = ky.create({ prefix: baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
  return {
    name: 'ky',
    getProject: (id) => api.get(`v1/projects/${encodeURIComponent(id)}`).json(),
    createProject: (params) => api.post('v1/projects', { json: params }).json(),
    sendChat: (projectId, message) =>
      api.post(`v1/projects/${encodeURIComponent(projectId)}/chat`, { json: { message } }).json(),
  };
}

function agentchat({ baseUrl, apiKey }: Target): Contender {
  const client = new Client({ apiKey, baseUrl });
  return {
    name: 'agentchat',
    getProject: (id) => client.projects.get(id),
    createProject: (params) => client.projects.create(params),
    sendChat: (projectId, message) => client.chat.send({ projectId, message }),
  };
}

function openai({ baseUrl, apiKey }: Target): Contender {
  const client = new OpenAI({ apiKey, baseURL: baseUrl });
  return {
    name: 'openai',
    getProject: (id) => client.get(`/v1/projects/${encodeURIComponent(id)}`),
    createProject: (params) => client.post('/v1/projects', { body: params }),
    sendChat: (projectId, message) =>
      client.post(`/v1/projects/${encodeURIComponent(projectId)}/chat`, { body: { message } }),
  };
}

/**
 * Makes one call of each operation and checks the answers, so that a contender that fails fast
 * (a 404, a wrong URL) cannot pass for a fast one.
 */
export async function verifyContender(contender: Contender, projectId: string): Promise<void> {
  const fail = (what: string, value: unknown) => {
    throw new Error(`${contender.name}: unexpected ${what} answer ${JSON.stringify(value)}`);
  };
  const project = await contender.getProject(projectId);
  if (!isRecord(project) || project.id !== projectId) fail('projects.get', project);
  const created = await contender.createProject({ name: 'Check', agentId: 'agent_check' });
  if (!isRecord(created) || typeof created.id !== 'string') fail('projects.create', created);
  const reply = await contender.sendChat(projectId, 'Hello');
  if (!isRecord(reply) || typeof reply.message !== 'string') fail('chat.send', reply);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
