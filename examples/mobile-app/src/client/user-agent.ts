/**
 * "Chrome 142 on Windows" from a User-Agent header: what a person can check at a glance on a
 * sign-in request. Falls back to the raw header when it names nothing familiar.
 */
export function describeUserAgent(userAgent: string): string {
  const browser =
    match(userAgent, /Edg(?:e|A|iOS)?\/(\d+)/, 'Edge') ??
    match(userAgent, /OPR\/(\d+)/, 'Opera') ??
    match(userAgent, /Firefox\/(\d+)/, 'Firefox') ??
    match(userAgent, /FxiOS\/(\d+)/, 'Firefox') ??
    match(userAgent, /CriOS\/(\d+)/, 'Chrome') ??
    match(userAgent, /HeadlessChrome\/(\d+)/, 'Headless Chrome') ??
    match(userAgent, /Chrome\/(\d+)/, 'Chrome') ??
    match(userAgent, /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari');
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : null;
  if (!browser) return userAgent;
  return system ? `${browser} on ${system}` : browser;
}

function match(userAgent: string, pattern: RegExp, name: string): string | null {
  const version = pattern.exec(userAgent)?.[1];
  return version ? `${name} ${version}` : null;
}
