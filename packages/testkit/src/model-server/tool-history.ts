import type { ParsedModelRequest } from './model-server-types';

/**
 * Collects the tool calls and tool results found in a request's history.
 * Results name only a call id, so names come from the matching call; an id
 * with no echoed call is kept so the server can look up its own calls.
 */
export class ToolHistory {
  private readonly callNames = new Map<string, string[]>();
  private readonly resultIds = new Set<string>();

  noteCall(callId: unknown, names: string[]): void {
    if (typeof callId === 'string') this.callNames.set(callId, names);
  }

  noteResult(callId: unknown): void {
    if (typeof callId === 'string') this.resultIds.add(callId);
  }

  answered(): Pick<ParsedModelRequest, 'answeredToolNames' | 'answeredCallIds'> {
    const answeredToolNames = new Set<string>();
    for (const id of this.resultIds) {
      for (const name of this.callNames.get(id) ?? []) answeredToolNames.add(name);
    }
    return { answeredToolNames, answeredCallIds: new Set(this.resultIds) };
  }
}
