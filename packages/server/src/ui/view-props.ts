import type { NoticeState } from './notice';

export interface ViewProps {
  /** Shows the outcome of an action (an error, or a success with an optional undo). */
  notify: (notice: NoticeState | undefined) => void;
}
