/** A bad command line: printed with its usage, without a stack; nothing has run. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage to print with it, when not the bench's own (a subcommand's). */
    readonly usage?: string,
  ) {
    super(message);
  }
}
