import { firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

/** `java.lang.IllegalStateException: msg`, `Exception in thread "main" ...`, `Caused by: ...`. */
const JAVA_EXCEPTION =
  /^(?:Exception in thread "[^"]*" |Caused by: )?([a-z][\w$]*\.[\w$.]*(?:Exception|Error))(?::\s?(.*))?$/;
const JAVA_FRAME = /^\s+at [\w$.<>]+\(/;

/** `App.java:12: error: cannot find symbol` and, under it, `  symbol:   variable Config`. */
const JAVAC_ERROR = /^\S+\.java:\d+: error: (.+)$/;
const JAVAC_SYMBOL = /^\s+symbol:\s+(.+)$/;
/** The launcher names the class it did not find: where, not what (the classpath is the fix). */
const JAVA_LAUNCHER = /^Error: (Could not find or load main class) \S+$/;
/** Parse errors quote the input: data, not the fix. */
const QUOTED_INPUT = /^(For input string: )"[^"]*"(.*)$/;

/** javac: each error with the symbol it could not find (a set: the order is the files'). */
function javacKey(lines: readonly string[]): string[] | undefined {
  const found = new Set<string>();
  lines.forEach((line, index) => {
    const message = JAVAC_ERROR.exec(line)?.[1];
    if (!message) return;
    // The symbol line follows the source line and the caret.
    const symbol = lines
      .slice(index + 1, index + 5)
      .map((next) => JAVAC_SYMBOL.exec(next)?.[1])
      .find(Boolean);
    found.add(symbol ? `${message}: ${symbol.replace(/\s+/g, ' ')}` : message);
  });
  return found.size > 0 ? [...found].sort().slice(0, 3) : undefined;
}

/** Java: javac's errors, the launcher's, else the root cause of a trace (the last `Caused by:`). */
export const javaRule: SignatureRule = {
  family: 'java',
  key({ lines }) {
    const javac = javacKey(lines);
    if (javac) return javac;
    const launcher = firstCapture(lines, JAVA_LAUNCHER);
    if (launcher) return keyOf(launcher, firstCapture(lines, /^Caused by: ([\w.$]+)/));
    if (!hasLine(lines, JAVA_FRAME)) return undefined;
    const causes = lines.filter((line) => line.startsWith('Caused by: '));
    const line = causes.at(-1) ?? lines.find((candidate) => JAVA_EXCEPTION.test(candidate));
    const match = line ? JAVA_EXCEPTION.exec(line) : null;
    return match ? keyOf(match[1], match[2]?.replace(QUOTED_INPUT, '$1<input>$2')) : undefined;
  },
};

const MAVEN_GOAL =
  /^\[ERROR\] Failed to execute goal ([\w.-]+:[\w.-]+):[^:\s]+:([^\s:]+) [^:]*: (.*)$/;
const MAVEN_HELP = / -> \[Help \d+\]$/;
const MAVEN_COMPILE = /^\[ERROR\] \S+\.(?:java|kt|scala):\[\d+,\d+\] (.+)$/;
const MAVEN_ERROR = /^\[ERROR\] (\S.*)$/;

/** Maven: the compiler's first message, the failed goal (plugin and goal, not its version) and its reason. */
export const mavenRule: SignatureRule = {
  family: 'maven',
  key({ lines, commandFamily }) {
    const goal = lines.map((line) => MAVEN_GOAL.exec(line)).find(Boolean);
    // `mvn -q` prints no BUILD FAILURE banner: its [ERROR] lines are enough when the command was mvn.
    const quiet = commandFamily?.startsWith('mvn') && hasLine(lines, MAVEN_ERROR);
    if (!goal && !quiet && !hasLine(lines, /^\[INFO\] BUILD FAILURE/)) return undefined;
    const compile = firstCapture(lines, MAVEN_COMPILE);
    if (goal) return keyOf(`${goal[1]}:${goal[2]}`, compile ?? goal[3]?.replace(MAVEN_HELP, ''));
    return keyOf(compile ?? firstCapture(lines, MAVEN_ERROR));
  },
};

const GRADLE_WRONG = /^\* What went wrong:/;

/** Gradle: the lines under `* What went wrong:` (the failed task and its reason). */
export const gradleRule: SignatureRule = {
  family: 'gradle',
  key({ lines }) {
    const at = lines.findIndex((line) => GRADLE_WRONG.test(line));
    if (at < 0) return undefined;
    const after = lines.slice(at + 1, at + 8);
    const end = after.findIndex((line) => line.startsWith('* '));
    const reason = (end < 0 ? after : after.slice(0, end))
      .map((line) => line.replace(/^>\s*/, '').trim())
      .filter((line) => line !== '');
    const kotlin = firstCapture(lines, /^e: \S+ (.+)$/);
    return keyOf(reason.slice(0, 2), kotlin);
  },
};
