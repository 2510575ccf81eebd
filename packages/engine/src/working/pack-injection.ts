import { type ContextPack, estimateCounter, type PackInput, type PackProfileName } from '../packs';
import type { SessionRecord } from './head-store';
import type { LifecycleParts } from './lifecycle-parts';
import type { InjectionEvent, InjectionReceipt } from './pack-receipts';
import { buildProfilePack } from './profile-pack';

export interface PackInjectionRequest {
  event: InjectionEvent;
  profile: PackProfileName;
  session: SessionRecord;
  /** The prompt (prompt-submit), the failure's error text (post-tool). */
  input?: string;
  /** Candidates the event brings itself (post-tool: the fix of the failure). */
  history?: PackInput[];
}

export interface PackInjection {
  /** What the hook injects: '' when nothing is new. */
  text: string;
  receipt: InjectionReceipt;
}

/**
 * One injection: the profile's pack for the session (profile-pack.ts),
 * claimed as shown for the session epoch when the profile claims, and its
 * receipt stored, in one write, and none when nothing is injected. The
 * receipt's pack is the pack the text was rendered from; its id is the one
 * the text names.
 */
export async function injectPack(
  p: LifecycleParts,
  request: PackInjectionRequest,
): Promise<PackInjection> {
  const { session } = request;
  const { pack, profile } = await buildProfilePack(p, request);
  const receipt: InjectionReceipt = {
    receiptId: pack.receiptId ?? '',
    event: request.event,
    profile: profile.name,
    agentId: session.agentId,
    sessionKey: session.sessionKey,
    threadKey: session.threadKey,
    epoch: session.epoch,
    at: p.ctx.now().toISOString(),
    tokens: pack.text ? estimateCounter.count(pack.text) : 0,
    budgetTokens: pack.budget.total,
    pack,
  };
  if (pack.text) {
    const store = p.heads();
    store.transaction(() => {
      if (profile.claim)
        store.sessions.claimInjections(
          session,
          pack.items.map((item) => item.id),
        );
      store.receipts.record(receipt);
    });
  }
  return { text: pack.text, receipt };
}

/**
 * What `injectPack` would inject for the same state, without claiming or
 * storing anything: `cairn pack --profile` prints it.
 */
export async function previewPack(
  p: LifecycleParts,
  request: Omit<PackInjectionRequest, 'event'>,
): Promise<ContextPack> {
  return (await buildProfilePack(p, request)).pack;
}
