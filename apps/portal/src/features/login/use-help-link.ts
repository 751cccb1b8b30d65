import { useEffect, useState } from 'react';
import { passwordApi } from './password-api.ts';

/**
 * SPEC §2 login query partnerCode: the trouble-logging-in link of the partner the user came
 * from, for the entered address; the theme's link when there is no partner or its answer
 * cannot be had. Null while the partner's link is being asked for, or when there is none.
 */
export function useHelpLink(email: string | undefined, partnerCode: string | null, themeUrl: string | null) {
  const [partnerUrl, setPartnerUrl] = useState<{ url: string | null; for: string } | null>(null);
  const key = partnerCode && email ? `${partnerCode}\n${email}` : null;

  useEffect(() => {
    if (!partnerCode || !email) return;
    let cancelled = false;
    const asked = `${partnerCode}\n${email}`;
    passwordApi
      .partnerHelpLink(partnerCode, email)
      // Only a web address becomes a link: a javascript: URL would run in the portal's origin.
      .then((answer) => ({
        url: answer.url && /^https?:\/\//i.test(answer.url) ? answer.url : themeUrl,
        for: asked,
      }))
      .catch(() => ({ url: themeUrl, for: asked }))
      .then((resolved) => {
        if (!cancelled) setPartnerUrl(resolved);
      });
    return () => {
      cancelled = true;
    };
  }, [partnerCode, email, themeUrl]);

  if (!key) return themeUrl;
  return partnerUrl?.for === key ? partnerUrl.url : null;
}
