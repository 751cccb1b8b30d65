/**
 * What the admin API accepts for each theme image, as the server checks it (imageSlots in
 * apps/server/src/features/assets/assets.service.ts, docs/admin-api.md#theme-images): the one
 * place the console knows it, for the upload fields' labels, their `accept` lists and the
 * errors said at the field before (and after) a file is sent.
 */
export type UploadSlot = 'logo' | 'favicon' | 'background';

interface ImageRule {
  /** The types' names as people know them, in the server's order. */
  names: string[];
  /** Content types a file may have (the server also takes image/vnd.microsoft.icon for ICO). */
  types: string[];
  /** File name endings, for a browser that leaves a file's type empty. */
  extensions: string[];
  maxBytes: number;
}

export const imageRules: Record<UploadSlot, ImageRule> = {
  logo: {
    names: ['SVG', 'PNG', 'WebP'],
    types: ['image/svg+xml', 'image/png', 'image/webp'],
    extensions: ['.svg', '.png', '.webp'],
    maxBytes: 256 * 1024,
  },
  favicon: {
    names: ['ICO', 'PNG', 'SVG', 'WebP'],
    types: ['image/x-icon', 'image/vnd.microsoft.icon', 'image/png', 'image/svg+xml', 'image/webp'],
    extensions: ['.ico', '.png', '.svg', '.webp'],
    maxBytes: 64 * 1024,
  },
  // The page's background takes what the logo takes.
  background: {
    names: ['SVG', 'PNG', 'WebP'],
    types: ['image/svg+xml', 'image/png', 'image/webp'],
    extensions: ['.svg', '.png', '.webp'],
    maxBytes: 256 * 1024,
  },
};

/** The file input's `accept`: the content types and the endings. */
export const acceptOf = (slot: UploadSlot) =>
  [...imageRules[slot].types, ...imageRules[slot].extensions].join(',');

/** The accepted types in words, "SVG, PNG or WebP", in the console's language. */
export const typeNames = (slot: UploadSlot, language: string) =>
  new Intl.ListFormat(language, { type: 'disjunction' }).format(imageRules[slot].names);

/** A size's number of KiB as the console's language writes numbers ("256", "1,5"; theme.kib adds the unit). */
export const kibNumber = (bytes: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(bytes / 1024);

/** What is wrong with a file before it is sent: its type or its size; null when it may go. */
export function fileProblem(slot: UploadSlot, file: File): 'type' | 'size' | null {
  const rule = imageRules[slot];
  const name = file.name.toLowerCase();
  const typed = file.type
    ? rule.types.includes(file.type)
    : rule.extensions.some((ending) => name.endsWith(ending));
  if (!typed) return 'type';
  return file.size > rule.maxBytes ? 'size' : null;
}
