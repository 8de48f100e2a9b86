/**
 * A LangChain chat model scripted like a real model calling tools: each call answers with the
 * next message of its script, or with one written from the messages so far (the tool results
 * the loop gave it). Built on `BaseChatModel` alone, which every @langchain/core release the peer
 * range allows has (1.0.1 has no `@langchain/core/testing`), so the suite runs at both ends of it.
 */
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** One answer of the script: a message, or one written from the messages the model was given. */
export type ScriptedAnswer = BaseMessage | ((messages: BaseMessage[]) => BaseMessage);

/** One call of the model: the messages it was given. */
export interface ScriptedCall {
  readonly messages: BaseMessage[];
}

/** The script and the calls, shared by the model and every copy `bindTools` makes of it. */
interface Script {
  readonly answers: ScriptedAnswer[];
  readonly calls: ScriptedCall[];
}

export class ScriptedChatModel extends BaseChatModel {
  readonly #script: Script;

  constructor(script: Script = { answers: [], calls: [] }) {
    super({});
    this.#script = script;
  }

  /** Every call so far, in order. */
  get calls(): readonly ScriptedCall[] {
    return this.#script.calls;
  }

  get callCount(): number {
    return this.#script.calls.length;
  }

  /** Adds an answer to the script. */
  respond(answer: ScriptedAnswer): this {
    this.#script.answers.push(answer);
    return this;
  }

  /** Adds an answer that calls the tools named, with these arguments. */
  respondWithTools(calls: ReadonlyArray<{ name: string; args: Record<string, unknown> }>): this {
    const offset = this.#script.answers.length;
    return this.respond(
      new AIMessage({
        content: '',
        tool_calls: calls.map(({ name, args }, index) => ({
          name,
          args,
          id: `call_${offset}_${index}`,
          type: 'tool_call' as const,
        })),
      }),
    );
  }

  _llmType(): string {
    return 'scripted';
  }

  /**
   * The agent binds its tools before each call: the copy answers from the same script, and records
   * its calls in the same list. Each call is a spy's to see (`vi.spyOn(model, 'bindTools')`).
   */
  override bindTools(_tools: BindToolsInput[]): ScriptedChatModel {
    return new ScriptedChatModel(this.#script);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const { answers, calls } = this.#script;
    calls.push({ messages: [...messages] });
    const answer = answers[calls.length - 1];
    if (answer === undefined) throw new Error(`The script has no answer ${calls.length}.`);
    const message = typeof answer === 'function' ? answer(messages) : answer;
    return { generations: [{ text: message.text, message }] };
  }
}

/** A model with an empty script, to fill with `respond` and `respondWithTools`. */
export function scriptedChatModel(): ScriptedChatModel {
  return new ScriptedChatModel();
}
