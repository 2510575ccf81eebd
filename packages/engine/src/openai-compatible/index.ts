/** One JSON POST to an OpenAI-compatible endpoint, with the errors every caller words the same way. */
export { type EndpointWording, type JsonEndpoint, postJson } from './post-json';
