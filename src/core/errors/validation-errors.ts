import {
  AgentChatError,
  type CallSite,
  cut,
  describeCall,
  requestIdSuffix,
} from './agentchat-error.js';

/**
 * One problem found in a request's input or a response's body.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: '' });
 * } catch (error) {
 *   if (error instanceof RequestValidationError) {
 *     for (const issue of error.issues) console.error(`${issue.path}: ${issue.message}`);
 *     // message: must not be empty
 *   }
 * }
 * ```
 */
export interface ValidationIssue {
  /** Where the problem is, as a dotted path such as `metadata.tags.0` (`''` for the whole value). */
  readonly path: string;
  /** What is wrong there, such as `expected a non-empty string`. */
  readonly message: string;
}

/**
 * Input failed validation before anything was sent. `issues` lists every offending field.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.create({ name: '', agentId: 'agent_42' });
 * } catch (error) {
 *   if (error instanceof RequestValidationError) console.error(error.issues);
 *   // [{ path: 'name', message: 'must not be empty' }]
 * }
 * ```
 */
export class RequestValidationError extends AgentChatError {
  static override readonly errorName: string = 'RequestValidationError';
  /** Every problem found, one per offending field. */
  declare readonly issues: readonly ValidationIssue[];

  constructor(what: string, issues: readonly ValidationIssue[]) {
    const list = formatIssues(issues);
    // A list ending in a question ("did you mean timeout?") needs no full stop after it.
    super(`Invalid ${what}: ${list}${list.endsWith('?') ? '' : '.'} Nothing was sent.`);
    this.issues = issues;
  }
}

/**
 * A 2xx response whose body was not JSON or did not match the documented shape. Not retried:
 * the request may have taken effect.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof ResponseValidationError) {
 *     console.error(error.status, error.issues, error.requestId, error.body);
 *   }
 * }
 * ```
 */
export class ResponseValidationError extends AgentChatError {
  static override readonly errorName: string = 'ResponseValidationError';
  /** Every mismatch found between the body and the documented shape. */
  declare readonly issues: readonly ValidationIssue[];
  /** The HTTP status of the response. */
  declare readonly status: number;
  /** The `x-request-id` the service gave the response, for support requests. */
  declare readonly requestId: string | undefined;
  /** The body as received: parsed JSON when it parsed, otherwise the raw text. */
  declare readonly body: unknown;

  constructor(
    call: CallSite,
    response: { status: number; requestId: string | undefined; body: unknown },
    issues: readonly ValidationIssue[],
  ) {
    super(
      `${describeCall(call)} answered ${response.status} with an unexpected body: ${formatIssues(issues)}${requestIdSuffix(response.requestId)}`,
    );
    this.issues = issues;
    this.status = response.status;
    this.requestId = response.requestId;
    this.body = response.body;
  }
}

function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .map((issue) => cut(issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join('; ');
}
