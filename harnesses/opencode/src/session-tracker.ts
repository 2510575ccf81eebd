/**
 * Per-session state of one plugin instance: what to inject into the
 * session's model requests, and whether the session has had activity since
 * it last ended.
 *
 * The end rule (OpenCode has no session-end event): session.idle,
 * session.deleted and dispose end every session that has had a start,
 * prompt, tool use or compaction since its last end, so one burst of work
 * ends once however many of these fire. A later prompt in the same session
 * re-opens it and the next idle ends it again (a new session_summary node;
 * Tier 3 is append-only). A deleted session is forgotten.
 */
interface SessionState {
  /** The session-start block: kept for every request of the session. */
  start: string[];
  /** Recall for the latest prompt: replaced at each prompt. */
  prompt: string[];
  /** Activity since the last end. */
  active: boolean;
}

export class SessionTracker {
  private readonly sessions = new Map<string, SessionState>();

  isStarted(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  started(sessionId: string): void {
    if (!this.sessions.has(sessionId)) {
      this.sessions.set(sessionId, { start: [], prompt: [], active: true });
    }
  }

  /** The session-start block, once the engine has answered. */
  startInjected(sessionId: string, system: string[]): void {
    const state = this.sessions.get(sessionId);
    if (state) state.start = system;
  }

  prompted(sessionId: string, system: string[]): void {
    const state = this.sessions.get(sessionId);
    if (!state) return;
    state.prompt = system;
    state.active = true;
  }

  /** A known fix after a failing tool: joins the prompt's lines until the next prompt replaces them. */
  afterTool(sessionId: string, system: string[]): void {
    const state = this.sessions.get(sessionId);
    if (!state || system.length === 0) return;
    state.prompt = [...state.prompt.filter((line) => !system.includes(line)), ...system];
  }

  touched(sessionId: string): void {
    const state = this.sessions.get(sessionId);
    if (state) state.active = true;
  }

  /** The lines for the session's system prompt, empty for a session the plugin does not know. */
  system(sessionId: string | undefined): string[] {
    const state = sessionId ? this.sessions.get(sessionId) : undefined;
    return state ? [...state.start, ...state.prompt] : [];
  }

  /** True (once per burst of activity) when the session should end now. */
  claimEnd(sessionId: string): boolean {
    const state = this.sessions.get(sessionId);
    if (!state?.active) return false;
    state.active = false;
    return true;
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Sessions with activity since their last end (for dispose). */
  activeSessions(): string[] {
    return [...this.sessions].filter(([, state]) => state.active).map(([id]) => id);
  }
}
