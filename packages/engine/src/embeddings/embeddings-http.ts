import { type EndpointWording, type JsonEndpoint, postJson } from '../openai-compatible';

/** Where and how the `openai` embedder posts (`url` is `<baseUrl>/embeddings`). */
export type EmbeddingsEndpoint = JsonEndpoint;

function embeddingsWording({ url, model, timeoutMs }: EmbeddingsEndpoint): EndpointWording {
  return {
    subject: 'Embedder',
    retryTimeouts: true,
    hints: {
      credentials: `${url} refused the credentials; check the key in the embedder.apiKeyEnv variable`,
      notFound: `check that embedder.baseUrl ends in /v1 and that model "${model}" is served there (for Ollama: \`ollama pull ${model}\`)`,
      exhausted: (attempts) =>
        `${url} kept failing after ${attempts} attempt(s); check the server's load and logs, or try later`,
      rejected: `${url} rejected the request; check model "${model}" and that the server speaks the OpenAI embeddings API`,
      timeout: `no reply within ${timeoutMs} ms; check that the server is up and the model loaded, or raise embedder.timeoutMs`,
      unreachable: () =>
        `could not reach ${url}; check that the server runs there and embedder.baseUrl ends in /v1`,
      notJson: `${url} did not answer with JSON; check embedder.baseUrl`,
    },
  };
}

/**
 * POSTs one embeddings request (see postJson: retries, backoff, errors);
 * timeouts are retried, since a batch may just have met a busy server.
 */
export function postEmbeddings(endpoint: EmbeddingsEndpoint, payload: object): Promise<unknown> {
  return postJson(endpoint, embeddingsWording(endpoint), payload);
}
