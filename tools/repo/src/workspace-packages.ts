import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface PackageFolder {
  /** Folder name, which is also the declared id/type. */
  id: string;
  dir: string;
  manifest: {
    name: string;
    version: string;
    peerDependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
}

/** The package folders under `backends/` (or `harnesses/`), sorted by id. */
export function packageFolders(group: 'backends' | 'harnesses'): PackageFolder[] {
  const base = join(REPO_ROOT, group);
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  return names
    .filter((name) => statSync(join(base, name, 'package.json'), { throwIfNoEntry: false }))
    .sort()
    .map((id) => ({
      id,
      dir: join(base, id),
      manifest: JSON.parse(readFileSync(join(base, id, 'package.json'), 'utf8')),
    }));
}

/** `lancedb` -> `Lancedb`, `claude-code` -> `ClaudeCode`: the rule behind export names. */
export function pascalCase(id: string): string {
  return id
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export function camelCase(id: string): string {
  const pascal = pascalCase(id);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** Imports a workspace package by name (its built `dist`). */
export async function importPackage(name: string): Promise<Record<string, unknown>> {
  return (await import(name)) as Record<string, unknown>;
}

export interface PublishablePackage {
  /** Folder relative to the repository root, e.g. `packages/core`. */
  path: string;
  dir: string;
  manifest: PublishableManifest;
}

export interface PublishableManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  files?: string[];
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Every package the release publishes (not private), sorted by folder. */
export function publishablePackages(): PublishablePackage[] {
  return ['packages', 'backends', 'harnesses'].flatMap((group) => {
    const base = join(REPO_ROOT, group);
    return readdirSync(base)
      .sort()
      .filter((name) => statSync(join(base, name, 'package.json'), { throwIfNoEntry: false }))
      .map((name) => ({
        path: `${group}/${name}`,
        dir: join(base, name),
        manifest: JSON.parse(
          readFileSync(join(base, name, 'package.json'), 'utf8'),
        ) as PublishableManifest,
      }))
      .filter((pkg) => !pkg.manifest.private);
  });
}
