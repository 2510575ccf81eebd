import { ApiError } from './api';

export type NoticeState =
  | { kind: 'error'; error: ApiError }
  | { kind: 'ok'; message: string; undo?: () => void };

/** An action's failure (with its error code) or success (with Undo when it can be undone). */
export function Notice({
  notice,
  onClose,
}: {
  notice: NoticeState | undefined;
  onClose: () => void;
}) {
  if (!notice) return null;
  if (notice.kind === 'error') {
    const { code, message } = notice.error.body;
    return (
      <div class="notice error" role="alert">
        <strong class="code">{code}</strong> {message}{' '}
        <button type="button" onClick={onClose}>
          Dismiss
        </button>
      </div>
    );
  }
  return (
    <div class="notice ok" role="status">
      {notice.message}{' '}
      {notice.undo ? (
        <button type="button" onClick={notice.undo}>
          Undo
        </button>
      ) : null}{' '}
      <button type="button" onClick={onClose}>
        Dismiss
      </button>
    </div>
  );
}

/** Runs an action and reports it: errors keep their code (READ_ONLY, CONFLICT, ...). */
export async function act(
  notify: (notice: NoticeState | undefined) => void,
  run: () => Promise<unknown>,
  success: string,
  after: () => void,
  undo?: () => Promise<unknown>,
): Promise<void> {
  try {
    await run();
    after();
    notify({
      kind: 'ok',
      message: success,
      ...(undo ? { undo: () => void act(notify, undo, 'Undone.', after) } : {}),
    });
  } catch (error) {
    notify({
      kind: 'error',
      error:
        error instanceof ApiError
          ? error
          : new ApiError(0, { code: 'INTERNAL', message: String(error) }),
    });
  }
}
