export { type CairnMcpServerOptions, createCairnMcpServer } from './create-cairn-mcp-server';
export {
  createLocalHttpGuard,
  type LocalHttpGuardOptions,
  type LocalHttpVerdict,
  tokensEqual,
} from './local-http-guard';
export {
  generateMcpToken,
  loadOrCreateMcpToken,
  type McpTokenOptions,
  mcpTokenPath,
  rotateMcpToken,
} from './mcp-token';
export { MEMORY_TOOL_NAMES, type MemoryToolName } from './memory-tools';
export {
  DEFAULT_HTTP_PORT,
  type HttpServerHandle,
  type ServeHttpOptions,
  serveHttp,
} from './serve-http';
export { type McpServerHandle, type ServeStdioOptions, serveStdio } from './serve-stdio';
export { MAX_STDIO_LINE_BYTES, StdioLineTransport } from './stdio-line-transport';
export { VERSION } from './version';
