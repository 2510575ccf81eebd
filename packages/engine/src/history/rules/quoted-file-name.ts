/** A quoted absolute or relative path: `'/tmp/w-1/data/users.csv'`, `'./util.js'`. */
const QUOTED_PATH = /'(?:~|\.{1,2})?\/(?:[^'\s/]*\/)*([^'\s/]+)'/g;

/**
 * Keeps the file name of a quoted path and drops its folders: the folder
 * is where the project sits (scrubbed anyway), the name is what is
 * missing, so `open '/a/data/users.csv'` and `open '/b/data/users.csv'`
 * read the same and `users.csv` stays apart from `data.csv`.
 */
export function keepQuotedFileName(message: string): string {
  return message.replace(QUOTED_PATH, "'$1'");
}
