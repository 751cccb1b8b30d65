import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field } from './field.tsx';

describe('Field', () => {
  it('labels its control and describes it by its hint', () => {
    const html = renderToStaticMarkup(
      <Field id="domain" label="Login domain" hint="Where users sign in">
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(html).toContain('<label for="domain">Login domain</label>');
    expect(html).toContain('<input id="domain" aria-describedby="domain-hint"/>');
    expect(html).toContain('<p id="domain-hint" class="hint">Where users sign in</p>');
  });

  it('marks an invalid control and says why, next to it', () => {
    const html = renderToStaticMarkup(
      <Field
        id="domain"
        label="Login domain"
        hint="Hint"
        invalid
        error="Check this field"
        describedBy="intro"
      >
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(html).toContain('aria-describedby="intro domain-hint domain-error"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('<p id="domain-error" class="field-error">Check this field</p>');
  });

  it('says a valid control is valid, and shows no error then', () => {
    const html = renderToStaticMarkup(
      <Field id="domain" label="Login domain" invalid={false} error="Check this field">
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(html).toContain('aria-invalid="false"');
    expect(html).not.toContain('Check this field');
    expect(html).not.toContain('aria-describedby');
  });

  it('may be named by a heading instead of a label', () => {
    const html = renderToStaticMarkup(
      <Field id="json" labelledBy="json-heading">
        {(control) => <textarea {...control} />}
      </Field>,
    );
    expect(html).not.toContain('<label');
    expect(html).toContain('aria-labelledby="json-heading"');
  });
});
