import type { createHistoryRecorder } from './history-recorder';

/**
 * The tool-event recorder of task history (history-recorder.ts), loaded
 * here on first use: the history entry reaches the signature rules and the
 * fix learning only through this import, so an event that needs neither
 * does not evaluate them.
 */
export async function loadHistoryRecorder(): Promise<typeof createHistoryRecorder> {
  return (await import('./history-recorder')).createHistoryRecorder;
}
