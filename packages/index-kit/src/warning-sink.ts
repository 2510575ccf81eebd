export type WarningSink = (message: string) => void;

/** Collects distinct warnings and tells `onWarning` once about each. */
export function warningSink(onWarning?: (message: string) => void): {
  warnings: string[];
  warn: WarningSink;
} {
  const warnings: string[] = [];
  const warn: WarningSink = (message) => {
    if (warnings.includes(message)) return;
    warnings.push(message);
    onWarning?.(message);
  };
  return { warnings, warn };
}
