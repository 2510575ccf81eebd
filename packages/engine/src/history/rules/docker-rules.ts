import { firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

const DOCKER_MESSAGES: readonly RegExp[] = [
  /^(?:docker: )?Error response from daemon: (.+?)\.?$/,
  /^(?:docker: )?(Cannot connect to the Docker daemon)\b/,
  /^(?:docker: )?(permission denied while trying to connect to the Docker daemon socket)\b/,
  /^(?:ERROR|error): (failed to solve: .+)$/,
  /^(?:ERROR|error): (failed to (?:build|compute cache key|read dockerfile): .+)$/,
  /^(pull access denied for \S+?), repository does not exist/,
  /^(no matching manifest for \S+)/,
  /^docker: (invalid reference format\b.*)$/,
  /^docker: (unknown command: .+)$/,
  /^docker: ('[^']+' is not a docker command)/,
];
/** The CLI's own usage errors; only when the command was docker (other CLIs say the same). */
const DOCKER_USAGE = /^(unknown (?:shorthand )?flag: .+)$/;

/** Docker and BuildKit: the daemon's or the builder's message. */
export const dockerRule: SignatureRule = {
  family: 'docker',
  key({ lines, commandFamily }) {
    for (const pattern of DOCKER_MESSAGES) {
      const message = firstCapture(lines, pattern);
      if (message) return keyOf(message);
    }
    const isDocker = commandFamily?.startsWith('docker') || hasLine(lines, /^Run 'docker /);
    return isDocker ? keyOf(firstCapture(lines, DOCKER_USAGE)) : undefined;
  },
};
