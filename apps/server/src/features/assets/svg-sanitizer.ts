/**
 * An SVG sanitiser by reconstruction: the upload is parsed into elements, attributes and text,
 * and only what an allow-list names is written back out, freshly escaped. Scripts, styles,
 * foreign objects, event handlers, external references (href other than "#id", url() other
 * than url(#id)), animation that could set them, DTDs and entities never survive: a logo needs
 * shapes, gradients and text, nothing that runs or fetches. Input that is not well-formed is
 * refused rather than repaired. Served images also carry a sandboxing CSP (assets.routes.ts),
 * so even a mistake here could not run script in a page.
 */

export class SvgRejected extends Error {}

const allowedElements = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'lineargradient',
  'radialgradient',
  'stop',
  'clippath',
  'mask',
  'pattern',
]);

/** Elements dropped with everything inside them. */
const droppedWithContent = new Set([
  'script',
  'style',
  'foreignobject',
  'iframe',
  'animate',
  'set',
  'metadata',
]);

const allowedAttributes = new Set([
  'xmlns',
  'xmlns:xlink',
  'version',
  'id',
  'viewbox',
  'preserveaspectratio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'dx',
  'dy',
  'd',
  'points',
  'transform',
  'fill',
  'fill-opacity',
  'fill-rule',
  'clip-rule',
  'clip-path',
  'clippathunits',
  'mask',
  'maskunits',
  'maskcontentunits',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'color',
  'display',
  'visibility',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientunits',
  'gradienttransform',
  'spreadmethod',
  'patternunits',
  'patterncontentunits',
  'patterntransform',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'textlength',
  'lengthadjust',
  'vector-effect',
  'shape-rendering',
  'paint-order',
  'role',
  'aria-label',
  'aria-hidden',
  'focusable',
  'href',
  'xlink:href',
]);

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);|&/gi, (whole, name: string | undefined) => {
    if (!name) throw new SvgRejected('a bare & in the SVG');
    if (name.startsWith('#')) {
      const point =
        name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (!Number.isInteger(point) || point < 1 || point > 0x10ffff)
        throw new SvgRejected(`bad character ${whole}`);
      return String.fromCodePoint(point);
    }
    const known = namedEntities[name];
    if (known === undefined) throw new SvgRejected(`unknown entity ${whole}`);
    return known;
  });
}

function escapeXml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

/** An attribute value that references anything but a fragment of this document is dropped. */
function isSafeValue(name: string, value: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a URL's scheme.
  const compact = Array.from(value)
    .filter((character) => character.charCodeAt(0) > 0x20)
    .join('')
    .toLowerCase();
  if (name === 'href' || name === 'xlink:href') return /^#[\w.-]+$/.test(value.trim());
  if (compact.includes('javascript:') || compact.includes('data:') || compact.includes('expression('))
    return false;
  const urls = compact.match(/url\(([^)]*)\)/g) ?? [];
  return urls.every((url) => /^url\(['"]?#[\w.-]+['"]?\)$/.test(url));
}

const tagPattern = /^<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>"']+(?:\s*=\s*(?:"[^"<]*"|'[^'<]*'))?)*)\s*(\/?)>/;
const attributePattern = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"<]*)"|'([^'<]*)'))?/g;

/** The sanitised SVG document, or SvgRejected when the input is not a well-formed SVG. */
export function sanitizeSvg(input: string): string {
  let rest = input.replace(/^\uFEFF/, '').trimStart();
  const declaration = /^<\?xml[^?]*\?>/.exec(rest);
  if (declaration) rest = rest.slice(declaration[0].length);
  const out: string[] = [];
  const stack: string[] = [];
  /** Depth inside a dropped element (its content goes too). */
  let dropping = 0;
  let sawRoot = false;
  while (rest.length > 0) {
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end === -1) throw new SvgRejected('an unclosed comment');
      rest = rest.slice(end + 3);
      continue;
    }
    if (rest.startsWith('<!') || rest.startsWith('<?')) {
      throw new SvgRejected('DTDs, entities, CDATA and processing instructions are not accepted');
    }
    if (rest.startsWith('<')) {
      const match = tagPattern.exec(rest);
      if (!match) throw new SvgRejected('a malformed tag');
      rest = rest.slice(match[0].length);
      const [, closing, rawName, rawAttributes, selfClosing] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      const name = rawName.toLowerCase();
      if (closing) {
        if (stack.pop() !== name) throw new SvgRejected(`a mismatched </${rawName}>`);
        if (dropping > 0) dropping -= 1;
        else if (allowedElements.has(name)) out.push(`</${rawName}>`);
        continue;
      }
      if (stack.length === 0) {
        if (sawRoot || name !== 'svg') throw new SvgRejected('the document must be one <svg> element');
        sawRoot = true;
      }
      const skip = dropping > 0 || droppedWithContent.has(name) || !allowedElements.has(name);
      if (!selfClosing) {
        stack.push(name);
        if (skip && (dropping > 0 || droppedWithContent.has(name))) dropping += 1;
      }
      // An unknown element is left out but its children are kept (a <switch> around shapes).
      if (skip) continue;
      const attributes: string[] = [];
      for (const attribute of rawAttributes.matchAll(attributePattern)) {
        const attributeName = (attribute[1] ?? '').toLowerCase();
        const value = decodeEntities(attribute[2] ?? attribute[3] ?? '');
        if (!allowedAttributes.has(attributeName) || !isSafeValue(attributeName, value)) continue;
        attributes.push(` ${attribute[1]}="${escapeXml(value)}"`);
      }
      out.push(`<${rawName}${attributes.join('')}${selfClosing ? '/' : ''}>`);
      continue;
    }
    const next = rest.indexOf('<');
    const text = next === -1 ? rest : rest.slice(0, next);
    rest = next === -1 ? '' : rest.slice(next);
    if (text.includes('>')) throw new SvgRejected('a stray > in text');
    if (stack.length === 0) {
      if (text.trim()) throw new SvgRejected('text outside the <svg> element');
      continue;
    }
    if (dropping === 0) out.push(escapeXml(decodeEntities(text)));
  }
  if (!sawRoot || stack.length > 0) throw new SvgRejected('an unclosed <svg> document');
  return out.join('');
}
