import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BACKEND_REGISTRY_FILE, backendRegistrySource } from './backend-registry';
import { cliReference } from './cli-reference';
import {
  adapterCapabilityTable,
  backendCapabilityTable,
  backendOptionTrustTable,
  settingsTable,
} from './doc-tables';
import { harnessEvidenceTables } from './harness-evidence';
import { harnessFidelityTable } from './harness-tables';
import { replaceBetweenMarkers } from './markers';
import { REPO_ROOT } from './workspace-packages';

interface GeneratedSection {
  file: string;
  name: string;
  build: () => string | Promise<string>;
}

export const SECTIONS: GeneratedSection[] = [
  { file: 'docs/BACKENDS.md', name: 'backend-capabilities', build: backendCapabilityTable },
  { file: 'docs/BACKENDS.md', name: 'adapter-capabilities', build: adapterCapabilityTable },
  { file: 'docs/CONFIG.md', name: 'settings', build: settingsTable },
  { file: 'docs/CONFIG.md', name: 'backend-option-trust', build: backendOptionTrustTable },
  { file: 'docs/HARNESSES.md', name: 'harness-fidelity', build: harnessFidelityTable },
  { file: 'docs/HARNESSES.md', name: 'harness-evidence', build: harnessEvidenceTables },
  { file: 'docs/CLI-REFERENCE.md', name: 'cli-reference', build: cliReference },
];

/** Source files generated whole (registries read from the packages' manifests). */
export const GENERATED_FILES: { file: string; build: () => string }[] = [
  { file: BACKEND_REGISTRY_FILE, build: backendRegistrySource },
];

/** Regenerates every section and generated file in memory, with the text each had before. */
export async function renderDocs(): Promise<Map<string, { before: string; after: string }>> {
  const files = new Map<string, { before: string; after: string }>();
  for (const generated of GENERATED_FILES) {
    const path = join(REPO_ROOT, generated.file);
    const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
    files.set(path, { before, after: generated.build() });
  }
  for (const section of SECTIONS) {
    const path = join(REPO_ROOT, section.file);
    const entry = files.get(path) ?? { before: readFileSync(path, 'utf8'), after: '' };
    entry.after = replaceBetweenMarkers(
      entry.after || entry.before,
      section.name,
      await section.build(),
    );
    files.set(path, entry);
  }
  return files;
}

/** The files that are out of date (empty when the docs match the code). */
export async function staleDocs(): Promise<string[]> {
  const files = await renderDocs();
  return [...files].filter(([, { before, after }]) => before !== after).map(([path]) => path);
}
