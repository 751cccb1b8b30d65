import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { errorCodes, type ServedFont, servedFontFamilies, type ThemeFont } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/shared/errors.ts';

/**
 * The fonts a theme may pick beyond the system's (issue 19 item 11), served from Keycard's own
 * origin: no font service sees who opens a sign-in page. Each is a variable font (one file per
 * script subset draws every weight the portal uses, 400 to 700), woff2 only, from its Fontsource
 * package. Only the subsets the portal's languages and guests' names need: Latin, Latin
 * Extended (Indonesian, European names) and Vietnamese; Thai keeps Noto Sans Thai (the
 * portal's thai-font.css), which comes first on Thai pages whatever the pick.
 */
const fontPackages: Record<ServedFont, string> = {
  humanist: '@fontsource-variable/source-sans-3',
  serif: '@fontsource-variable/source-serif-4',
  rounded: '@fontsource-variable/nunito',
};
const subsets = ['latin', 'latin-ext', 'vietnamese'] as const;

/** Where the files are served; each name carries its content's hash, so it is cached for good. */
export const fontFilesPrefix = '/_keycard/fonts/';

interface ServedFonts {
  /** Each font's @font-face rules, one per subset, naming its files by their hashed URLs. */
  faces: Record<ServedFont, string>;
  /** The files by their hashed names. */
  files: Map<string, Buffer>;
}

interface FontMetadata {
  id: string;
  variable: { wght: { min: string; max: string } };
}

/** Reads the packages once: metadata, unicode ranges and files, each file named by its hash. */
function loadServedFonts(): ServedFonts {
  const require = createRequire(import.meta.url);
  const files = new Map<string, Buffer>();
  const faces = {} as Record<ServedFont, string>;
  for (const [font, packageName] of Object.entries(fontPackages) as [ServedFont, string][]) {
    const metadata = require(`${packageName}/metadata.json`) as FontMetadata;
    const ranges = require(`${packageName}/unicode.json`) as Record<string, string>;
    const { min, max } = metadata.variable.wght;
    faces[font] = subsets
      .map((subset) => {
        const bytes = readFileSync(
          require.resolve(`${packageName}/files/${metadata.id}-${subset}-wght-normal.woff2`),
        );
        const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
        const name = `${metadata.id}-${subset}.${hash}.woff2`;
        files.set(name, bytes);
        return (
          `@font-face{font-family:"${servedFontFamilies[font]}";font-style:normal;font-weight:${min} ${max};` +
          // swap: the text paints at once in the stack's device fonts, then in the served one.
          `font-display:swap;src:url(${fontFilesPrefix}${name}) format("woff2");unicode-range:${ranges[subset]}}`
        );
      })
      .join('');
  }
  return { faces, files };
}

let served: ServedFonts | null = null;
const servedFonts = () => {
  served ??= loadServedFonts();
  return served;
};

/** The @font-face rules a page with this font needs: none for the system's fonts. */
export function fontFaceCss(font: ThemeFont): string {
  return font === 'system' ? '' : servedFonts().faces[font];
}

const isServedFont = (name: string): name is ServedFont => Object.hasOwn(fontPackages, name);

/**
 * `/_keycard/fonts/<file>.<hash>.woff2`, cached for good; and `/_keycard/fonts/<font>.css`, the
 * rules of one font for the console's theme preview (a page's own font is in its first paint,
 * first-paint.ts), checked again on each use since the files it names change with a release.
 */
export async function servedFontRoutes(app: FastifyInstance): Promise<void> {
  // Read at start: a missing font package stops the server here, not a tenant's first page.
  servedFonts();
  app.get<{ Params: { file: string } }>(`${fontFilesPrefix}:file`, async (request, reply) => {
    const { file } = request.params;
    const font = /^([a-z]+)\.css$/.exec(file)?.[1];
    if (font !== undefined && isServedFont(font)) {
      const css = fontFaceCss(font);
      const etag = `"${createHash('sha256').update(css).digest('base64url').slice(0, 22)}"`;
      reply
        .type('text/css; charset=utf-8')
        .header('cache-control', 'public, no-cache')
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff');
      return request.headers['if-none-match'] === etag ? reply.status(304).send() : reply.send(css);
    }
    const bytes = servedFonts().files.get(file);
    if (!bytes) throw new AppError(errorCodes.notFound);
    return reply
      .type('font/woff2')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
