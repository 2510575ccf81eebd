import { provideMcpModule } from './commands/mcp';

/**
 * `main` of main.ts with the MCP server bundled in: bin.ts loads this file
 * for `cairn mcp`. The import() keeps the server's modules (and the MCP
 * SDK, which builds zod schemas as it loads) initializing in order, after
 * the CLI's own.
 */
provideMcpModule(() => import('@cairn/mcp'));

export { main } from './main';
