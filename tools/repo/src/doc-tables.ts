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

/** Every setting with its default, environment variable and trust need, from SETTING_DEFINITIONS. */
export function settingsTable(): string {
  return markdownTable(
    ['Setting', 'Default', 'Environment variable', 'Needs trust', 'Meaning'],
    SETTING_DEFINITIONS.map((d) => [
      `\`${d.key}\``,
      d.defaultLabel,
      `\`${d.env}\``,
      d.trustLabel ?? (d.trust ? 'yes' : ''),
      d.description,
    ]),
  );
}

const trustCell = (rule: unknown): string => {
  if (rule === false) return 'no';
  if (rule === 'exec') return 'yes: runs a program';
  if (rule === 'network') return 'yes: network';
  if (rule === 'filesystem') return 'yes: outside the project';
  return 'depends on the value';
};

/** Each backend's `memoryBackendOptions` keys and whether they need trust, from `<id>OptionTrust`. */
export async function backendOptionTrustTable(): Promise<string> {
  const rows: string[][] = [];
  for (const folder of packageFolders('backends')) {
    const mod = await importPackage(folder.manifest.name);
    const table = mod[`${camelCase(folder.id)}OptionTrust`] as Record<string, unknown> | undefined;
    if (!table) {
      rows.push([`\`${folder.id}\``, '(every key)', 'ignored from an untrusted project config']);
      continue;
    }
    for (const [key, rule] of Object.entries(table)) {
      rows.push([`\`${folder.id}\``, `\`${key}\``, trustCell(rule)]);
    }
  }
  return markdownTable(['Backend', 'Option', 'Needs trust'], rows);
}
