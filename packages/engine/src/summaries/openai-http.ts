import { type EndpointWording, type JsonEndpoint, postJson } from '../openai-compatible';

export type ChatEndpoint = JsonEndpoint;

function chatWording({ url, model, timeoutMs }: ChatEndpoint): EndpointWording {
  return {
    subject: 'Summarizer',
    retryTimeouts: false,
    hints: {
      credentials: `${url} refused the credentials; check the API key (the apiKeyEnv variable) and that it may use model "${model}"`,
      notFound: `check that baseUrl ends in /v1 (${url} was not found) and that model "${model}" exists on the server`,
      exhausted: (attempts) =>
        `${url} still failed after ${attempts} attempt(s); check the server's logs and load, try again later, or raise maxRetries`,
      rejected: `${url} rejected the request; check model "${model}" and that the server speaks the OpenAI chat completions API`,
      timeout: `no reply from ${url} within ${timeoutMs} ms; check that model "${model}" is loaded and the server is not overloaded, or raise timeoutMs`,
      unreachable: (reason) =>
        `could not reach ${url}${reason ? ` (${reason})` : ''}; check that the server is running and listening there (for Ollama: \`ollama serve\`) and that baseUrl ends in /v1`,
      notJson: `${url} did not answer with JSON; check that baseUrl points at an OpenAI-compatible /v1 API`,
    },
  };
}

/**
 * POSTs a chat completion request and returns the parsed JSON reply (see
 * postJson: retries, backoff, errors). A timeout fails at once: a summary
 * that slow is better left to the extractive fallback.
 */
export function postChatCompletion(endpoint: ChatEndpoint, payload: object): Promise<unknown> {
  return postJson(endpoint, chatWording(endpoint), payload);
}
