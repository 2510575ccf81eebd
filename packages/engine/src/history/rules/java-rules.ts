import { firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

/** `java.lang.IllegalStateException: msg`, `Exception in thread "main" ...`, `Caused by: ...`. */
const JAVA_EXCEPTION =
  /^(?:Exception in thread "[^"]*" |Caused by: )?([a-z][\w$]*\.[\w$.]*(?:Exception|Error))(?::\s?(.*))?$/;
const JAVA_FRAME = /^\s+at [\w$.<>]+\(/;

/** Java: the root cause (the last `Caused by:`), else the exception at the top of the trace. */
export const javaRule: SignatureRule = {
  family: 'java',
  key({ lines }) {
    if (!hasLine(lines, JAVA_FRAME)) return undefined;
    const causes = lines.filter((line) => line.startsWith('Caused by: '));
    const line = causes.at(-1) ?? lines.find((candidate) => JAVA_EXCEPTION.test(candidate));
    const match = line ? JAVA_EXCEPTION.exec(line) : null;
    return match ? keyOf(match[1], match[2]) : undefined;
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
  key({ lines }) {
    const goal = lines.map((line) => MAVEN_GOAL.exec(line)).find(Boolean);
    if (!goal && !hasLine(lines, /^\[INFO\] BUILD FAILURE/)) return undefined;
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
