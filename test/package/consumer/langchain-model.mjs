// A LangChain chat model scripted for the packaging tests: each step answers from the messages so
// far with tool calls or a text. LangChain's own fake model (`fakeModel` of
// @langchain/core/testing) where that version has it; before @langchain/core 1.1.40 it had none
// that calls tools from what it read, so there the model is LangChain's documented custom chat
// model (a BaseChatModel with `_generate`), kept to what createAgent calls.
import { AIMessage, ToolMessage } from '@langchain/core/messages';

/** The last tool message of `messages`. */
export const lastTool = (messages) =>
  messages.filter((message) => ToolMessage.isInstance(message)).at(-1);

/** What the model read of the last tool result, parsed. */
export const lastResult = (messages) => JSON.parse(lastTool(messages).text);

let callId = 0;

/** `{ calls: [[name, args]] }` or `{ text }` as the AIMessage a model answers with. */
function answer(step) {
  if ('text' in step) return new AIMessage(step.text);
  return new AIMessage({
    content: '',
    tool_calls: step.calls.map(([name, args]) => ({ name, args, id: `call_${++callId}` })),
  });
}

/**
 * A chat model answering its n-th call with `steps[n](messages)`; `offered` collects the names of
 * the tools each `bindTools` gave it.
 */
export async function scriptedModel(steps, offered = []) {
  const testing = await import('@langchain/core/testing').catch(() => undefined);
  let model;
  if (testing?.fakeModel) {
    model = testing.fakeModel();
    for (const step of steps) model.respond((messages) => answer(step(messages)));
  } else {
    const { BaseChatModel } = await import('@langchain/core/language_models/chat_models');
    class ScriptedChatModel extends BaseChatModel {
      calls = 0;
      _llmType() {
        return 'scripted';
      }
      bindTools() {
        return this;
      }
      async _generate(messages) {
        const message = answer(steps[this.calls++](messages));
        return { generations: [{ text: message.text, message }] };
      }
    }
    model = new ScriptedChatModel({});
  }
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools, ...rest) => {
    offered.push(tools.map((tool) => tool.name));
    return bindTools(tools, ...rest);
  };
  return model;
}
