import { firstCapture, keyOf, type SignatureRule } from '../signature-rule';

const DOCKER_MESSAGES: readonly RegExp[] = [
  /^(?:docker: )?Error response from daemon: (.+?)\.?$/,
  /^(Cannot connect to the Docker daemon)\b/,
  /^(?:docker: )?(permission denied while trying to connect to the Docker daemon socket)\b/,
  /^(?:ERROR|error): (failed to solve: .+)$/,
  /^(?:ERROR|error): (failed to (?:build|compute cache key|read dockerfile): .+)$/,
  /^(pull access denied for \S+?), repository does not exist/,
  /^(no matching manifest for \S+)/,
];

/** Docker and BuildKit: the daemon's or the builder's message. */
export const dockerRule: SignatureRule = {
  family: 'docker',
  key({ lines }) {
    for (const pattern of DOCKER_MESSAGES) {
      const message = firstCapture(lines, pattern);
      if (message) return keyOf(message);
    }
    return undefined;
  },
};
