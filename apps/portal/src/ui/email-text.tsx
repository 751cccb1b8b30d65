import { Fragment, type ReactNode } from 'react';

/**
 * An e-mail address as text that wraps only where a reader expects it: after "@" and after a
 * dot (a <wbr> there), and, for a part longer than the line, anywhere (`.kc-email`,
 * `overflow-wrap: anywhere`) — but never at the address's own hyphen, where a break would read
 * as a hyphenation ("anna-" / "lena@…"): each hyphen is kept with its neighbours in a
 * `white-space: nowrap` span. No characters are added, so a copied address is the address.
 */
export function EmailText({ email }: { email: string }) {
  return <span className="kc-email">{emailPieces(email)}</span>;
}

/** The pieces of an address: text, a <wbr> after each "@" and ".", a hyphen kept whole. */
export function emailPieces(email: string): ReactNode[] {
  const pieces: ReactNode[] = [];
  let key = 0;
  for (const part of email.split(/(?<=[@.])/)) {
    // "anna-lena@" → "ann", "a-l", "ena@": the hyphen never starts or ends a line.
    const chunks = part.split(/(.-(?=.))/).filter((chunk) => chunk !== '');
    let carry = '';
    for (const chunk of chunks) {
      if (/^.-$/.test(chunk)) {
        carry += chunk;
        continue;
      }
      if (carry) {
        pieces.push(
          <span key={key++} className="kc-nobreak">
            {carry}
            {chunk.slice(0, 1)}
          </span>,
        );
        carry = '';
        if (chunk.length > 1) pieces.push(<Fragment key={key++}>{chunk.slice(1)}</Fragment>);
      } else {
        pieces.push(<Fragment key={key++}>{chunk}</Fragment>);
      }
    }
    if (carry) pieces.push(<Fragment key={key++}>{carry}</Fragment>);
    if (/[@.]$/.test(part)) pieces.push(<wbr key={key++} />);
  }
  return pieces;
}

/**
 * A translated sentence with an address in it ("Logging in as {{email}}", already filled in):
 * the address drawn as <EmailText>, the rest as text.
 */
export function TextWithEmail({ text, email }: { text: string; email: string }) {
  if (!email) return <>{text}</>;
  const parts = text.split(email);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
        <Fragment key={index}>
          {index > 0 ? <EmailText email={email} /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
