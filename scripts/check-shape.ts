/**
 * The code's shape, as docs/architecture.md describes it, checked in `npm test`:
 * - the layers: dependency-cruiser with .dependency-cruiser.cjs (no import cycle between files
 *   or folders, no import running upward, the server's features in their written order);
 * - no source file over 500 lines (language catalogues aside: one text per line, eight languages).
 * Prints every breach and exits with 1 when there is one.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where the layers are checked. */
const layered = ['apps/server/src', 'apps/portal/src', 'apps/console/src', 'packages'];
/** Where file lengths are checked: every source of the repository. */
const everywhere = [...layered, 'e2e', 'examples', 'scripts', 'bench'];
const maxLines = 500;
/** Catalogues of texts: one language's words, as long as the product has screens. */
const catalogue = /^packages\/texts\/src\/(.+\/)?(en|de|es|fr|id|it|pt|th)(-core)?\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : sources(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

let ok = true;

const cruise = spawnSync(
  path.resolve('node_modules', '.bin', 'depcruise'),
  [...layered, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
  { stdio: 'inherit' },
);
if (cruise.status !== 0) {
  console.error('✖ the layers of docs/architecture.md are broken (above)');
  ok = false;
}

const long = everywhere
  .flatMap(sources)
  .filter((file) => !catalogue.test(file))
  .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length }))
  .filter(({ lines }) => lines > maxLines);
for (const { file, lines } of long) console.error(`✖ ${file}: ${lines} lines (at most ${maxLines})`);
if (long.length > 0) ok = false;
else console.log(`✔ no source file over ${maxLines} lines`);

process.exit(ok ? 0 : 1);
