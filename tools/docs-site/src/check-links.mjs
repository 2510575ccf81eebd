// Every internal link of the built site must reach a file, and its anchor an id on that page.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function htmlFiles(folder) {
  return readdirSync(folder, { recursive: true })
    .map((name) => join(folder, String(name)))
    .filter((path) => path.endsWith('.html') && statSync(path).isFile());
}

const idsCache = new Map();
function idsOf(file) {
  if (!idsCache.has(file)) {
    const html = readFileSync(file, 'utf8');
    idsCache.set(
      file,
      new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decodeEntities(m[1]))),
    );
  }
  return idsCache.get(file);
}

const decodeEntities = (text) =>
  text
    .replaceAll('&amp;', '&')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');

/** The file a link's path names, as the static server would answer it. */
function target(root, from, path) {
  const base = path.startsWith('/') ? join(root, path) : resolve(dirname(from), path);
  for (const candidate of [base, `${base}.html`, join(base, 'index.html')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** `page.html: href` for each link that leads nowhere. */
export function checkLinks(root) {
  const problems = [];
  for (const file of htmlFiles(root)) {
    // The page's own content: hrefs in the body, not the assets the theme loads.
    const html = readFileSync(file, 'utf8');
    for (const [, raw] of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
      const href = decodeEntities(raw);
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
      const [path, anchor] = href.split('#', 2);
      const page = path === '' ? file : target(root, file, decodeURIComponent(path));
      const where = relative(root, file);
      if (!page) {
        problems.push(`${where}: ${href} (no such page)`);
        continue;
      }
      if (anchor && page.endsWith('.html') && !idsOf(page).has(decodeURIComponent(anchor))) {
        problems.push(`${where}: ${href} (no such anchor)`);
      }
    }
  }
  return problems;
}
