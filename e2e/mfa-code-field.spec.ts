import { en } from '@keycard/texts';
import { describe, expect, it } from 'vitest';
import { newContext } from './support/browser.ts';
import { createTestUser, expectHeading, signIn, stubDefaultRedirect } from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';

/**
 * The code field keeps digits only, and six at most, as they are typed. On Preact (the portal's
 * runtime, docs/architecture.md) a refused key changes no state, so nothing is drawn again: the
 * field has to put itself back, which React did for every controlled field.
 */
describe('MFA code field (Chromium)', () => {
  const stack = useSignInStack();

  it('shows no letter and no seventh digit typed into it', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await (await newContext(stack.browser)).newPage();
    await stubDefaultRedirect(page);
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.getByRole('button', { name: en.mfa.choose.app }).click();
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    await expectHeading(page, en.mfa.totp.scan.heading);
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    await expectHeading(page, en.mfa.totp.code.heading);

    const field = page.getByLabel(en.mfa.common.codeLabel, { exact: true });
    await field.pressSequentially('12a3456');
    expect(await field.inputValue()).toBe('123456');
    await field.pressSequentially('7b');
    expect(await field.inputValue()).toBe('123456');
    await page.context().close();
  });
});
