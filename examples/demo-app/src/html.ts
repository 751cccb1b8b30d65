const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);
}

/**
 * Wraps page content in the shared document shell of the example apps; `title` and `appName`
 * are escaped, `mainHtml` must already be safe.
 */
export function renderDocument(title: string, mainHtml: string, appName = 'Keycard demo app'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(appName)}</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<main>
${mainHtml}
</main>
</body>
</html>
`;
}
