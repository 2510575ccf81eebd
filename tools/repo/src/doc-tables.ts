import {
  type MemoryBackendCapabilities,
  type RetrievalAdapterCapabilities,
  SETTING_DEFINITIONS,
} from '@cairn/core';
import { markdownTable } from './markers';
import { camelCase, importPackage, packageFolders } from './workspace-packages';

const BACKEND_CAPABILITIES: (keyof MemoryBackendCapabilities)[] = [
  'readable',
  'writable',
  'supportsAtomicWrite',
  'hasConflictResolution',
  'persistent',
];
const ADAPTER_CAPABILITIES: (keyof RetrievalAdapterCapabilities)[] = [
  'semantic',
  'keyword',
  'graph',
];

const mark = (value: unknown) => (value === true ? 'yes' : 'no');

/** The backend capability table, from each package's `<id>Capabilities` export. */
export async function backendCapabilityTable(): Promise<string> {
  const rows: string[][] = [];
  for (const folder of packageFolders('backends')) {
    const mod = await importPackage(folder.manifest.name);
    const capabilities = mod[`${camelCase(folder.id)}Capabilities`] as Record<string, unknown>;
    rows.push([
      `\`${folder.id}\``,
      `\`${folder.manifest.name}\``,
      ...BACKEND_CAPABILITIES.map((key) => mark(capabilities?.[key])),
    ]);
  }
  return markdownTable(['Backend', 'Package', ...BACKEND_CAPABILITIES], rows);
}

/** Retrieval adapters shipped by backend packages, from `<id>RetrievalCapabilities`. */
export async function adapterCapabilityTable(): Promise<string> {
  const rows: string[][] = [];
  for (const folder of packageFolders('backends')) {
    const mod = await importPackage(folder.manifest.name);
    const capabilities = mod[`${camelCase(folder.id)}RetrievalCapabilities`] as
      | Record<string, unknown>
      | undefined;
    if (!capabilities) continue;
    rows.push([
      `\`${folder.id}\``,
      `\`${folder.manifest.name}\``,
      ...ADAPTER_CAPABILITIES.map((key) => mark(capabilities[key])),
    ]);
  }
  return markdownTable(['Adapter', 'Package', ...ADAPTER_CAPABILITIES], rows);
}

/** Every setting with its default and environment variable, from SETTING_DEFINITIONS. */
export function settingsTable(): string {
  return markdownTable(
    ['Setting', 'Default', 'Environment variable', 'Meaning'],
    SETTING_DEFINITIONS.map((d) => [`\`${d.key}\``, d.defaultLabel, `\`${d.env}\``, d.description]),
  );
}
