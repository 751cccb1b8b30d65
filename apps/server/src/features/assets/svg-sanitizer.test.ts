import { describe, expect, it } from 'vitest';
import { SvgRejected, sanitizeSvg } from './svg-sanitizer.ts';

describe('SVG sanitiser', () => {
  it('keeps shapes, gradients, text and internal references as they were', () => {
    const logo =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><title>Acme &amp; Co</title><rect width="10" height="10" fill="url(#g)"/><use href="#g"/><text x="1" y="9">A&lt;B</text></svg>';
    expect(sanitizeSvg(logo)).toBe(logo.replace('<?xml version="1.0"?>', ''));
  });

  it.each([
    ['a script element', '<svg><script>alert(1)</script><rect/></svg>', '<svg><rect/></svg>'],
    [
      'an event handler',
      '<svg onload="alert(1)"><rect onclick="x()" width="1"/></svg>',
      '<svg><rect width="1"/></svg>',
    ],
    [
      'a style element and attribute',
      '<svg><style>@import url(//x)</style><rect style="fill:red"/></svg>',
      '<svg><rect/></svg>',
    ],
    [
      'a foreign object',
      '<svg><foreignObject><iframe src="//x"></iframe></foreignObject></svg>',
      '<svg></svg>',
    ],
    [
      'an external href',
      '<svg><use href="https://evil.example/x.svg#a"/><a href="javascript:alert(1)"><rect/></a></svg>',
      '<svg><use/><rect/></svg>',
    ],
    [
      'an encoded javascript: href',
      '<svg><use xlink:href="&#106;avascript:alert(1)"/></svg>',
      '<svg><use/></svg>',
    ],
    [
      'an external url() paint',
      '<svg><rect fill="url(https://evil.example/p)" stroke="url(#ok)"/></svg>',
      '<svg><rect stroke="url(#ok)"/></svg>',
    ],
    [
      'animation that could set attributes',
      '<svg><rect><set attributeName="href" to="javascript:x"/></rect></svg>',
      '<svg><rect></rect></svg>',
    ],
    ['an image element', '<svg><image href="https://tracker.example/p.png"/></svg>', '<svg></svg>'],
  ])('removes %s', (_name, input, output) => {
    expect(sanitizeSvg(input)).toBe(output);
  });

  it.each([
    ['a DTD with entities', '<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>'],
    ['an unknown entity', '<svg><text>&x;</text></svg>'],
    ['CDATA', '<svg><![CDATA[<script>]]></svg>'],
    ['an unclosed element', '<svg><g></svg>'],
    ['a root that is not svg', '<html><svg/></html>'],
    ['two roots', '<svg/><svg/>'],
    ['text outside the root', 'hello<svg/>'],
    ['a malformed tag', '<svg><rect width="1></svg>'],
    ['not XML at all', 'GIF89a'],
  ])('refuses %s', (_name, input) => {
    expect(() => sanitizeSvg(input)).toThrow(SvgRejected);
  });
});
