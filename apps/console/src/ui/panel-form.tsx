import { type FormEvent, type ReactNode, type Ref, useId } from 'react';

/**
 * A form of the console: named by its heading (or `labelledBy`, or `label`), its controls in
 * one fieldset that is disabled while it is busy (or when the operator may not change it), and
 * its submit button last, with any other actions beside it. Submitting never reloads the page.
 */
export function PanelForm({
  heading,
  headingId: givenHeadingId,
  level = 3,
  labelledBy,
  label,
  intro,
  className = 'panel',
  busy = false,
  disabled = false,
  submit,
  submitDisabled = false,
  danger = false,
  actions,
  inline = false,
  formRef,
  onSubmit,
  children,
}: {
  heading?: ReactNode;
  /** The heading's id, when a control inside is named by it too. */
  headingId?: string;
  level?: 2 | 3;
  /** The id of a heading outside the form that names it. */
  labelledBy?: string;
  /** A name without a visible heading. */
  label?: string;
  /** Between the heading and the fields: hints, an explanation, the outcome. */
  intro?: ReactNode;
  className?: string;
  busy?: boolean;
  disabled?: boolean;
  submit: ReactNode;
  submitDisabled?: boolean;
  danger?: boolean;
  actions?: ReactNode;
  /** The fields and the button on one line (a search). */
  inline?: boolean;
  formRef?: Ref<HTMLFormElement>;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const headingId = heading === undefined ? undefined : (givenHeadingId ?? `${id}-heading`);
  const button = (
    <button type="submit" className={danger ? 'button-danger' : undefined} disabled={submitDisabled}>
      {submit}
    </button>
  );
  return (
    <form
      ref={formRef}
      className={className || undefined}
      aria-labelledby={headingId ?? labelledBy}
      aria-label={headingId || labelledBy ? undefined : label}
      // The console says what is wrong at each field, in the operator's language: never the
      // browser's own bubbles (issue 19).
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {heading !== undefined && <Heading id={headingId}>{heading}</Heading>}
      {intro}
      <fieldset disabled={disabled || busy} className={inline ? 'plain inline' : 'plain'}>
        {children}
        {inline ? (
          button
        ) : (
          <div className="actions">
            {button}
            {actions}
          </div>
        )}
      </fieldset>
    </form>
  );
}
