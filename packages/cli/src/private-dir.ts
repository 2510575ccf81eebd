/**
 * The per-user folders of the CLI (the code cache, the hook server's socket
 * folder) and the ownership rule they pass before use, from `@cairn/core`
 * (user-paths/): kept under these names for the launcher and the hook server.
 */
export { isPrivateDir, privateDir, userCacheDir } from '@cairn/core';
