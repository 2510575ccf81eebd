import { parseInput } from '@cairn/core';
import * as z from 'zod/mini';
import { queryObject, type Route } from './route';
import { listWorkspaceFiles, readWorkspaceFile, saveWorkspaceFile } from './workspace-files';

const memoryBody = z.object({ content: z.string() });
const fileQuery = z.object({ path: z.string().check(z.minLength(1), z.maxLength(200)) });
const fileBody = z.object({
  path: z.string().check(z.minLength(1), z.maxLength(200)),
  content: z.string(),
  baseHash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

/**
 * Seed 000 §3.8.3: `/api/memory` reads and writes the long-term file
 * through the project's backend (a read-only one refuses with READ_ONLY);
 * `/api/memory/file` reads and saves the layered files by validated path.
 */
export const memoryRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/memory$/,
    handle: async ({ cairn }) => ({ backend: cairn.backend.type, ...(await cairn.read()) }),
  },
  {
    method: 'PUT',
    path: /^\/api\/memory$/,
    handle: async ({ cairn, body }) => {
      const { content } = parseInput(memoryBody, body, 'memory write');
      return { backend: cairn.backend.type, ...(await cairn.write(content)) };
    },
  },
  {
    method: 'GET',
    path: /^\/api\/memory\/files$/,
    handle: async ({ cairn }) => ({ files: await listWorkspaceFiles(cairn) }),
  },
  {
    method: 'GET',
    path: /^\/api\/memory\/file$/,
    handle: ({ cairn, query }) =>
      readWorkspaceFile(cairn, parseInput(fileQuery, queryObject(query), 'file path').path),
  },
  {
    method: 'PUT',
    path: /^\/api\/memory\/file$/,
    handle: ({ cairn, body }) => saveWorkspaceFile(cairn, parseInput(fileBody, body, 'file save')),
  },
];
