import { createHash } from 'node:crypto';
import { adminErrors } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { SvgRejected, sanitizeSvg } from './svg-sanitizer.ts';

/**
 * Theme images uploaded through the admin API (docs/admin-api.md#theme-images): checked by
 * their content, not by the name or type the upload claims, stored in the database (every
 * instance serves them) and addressed by their SHA-256, so a URL never changes meaning and
 * may be cached for good.
 */

export type ImageSlot = 'logo' | 'favicon' | 'background';
export type ImageType = 'png' | 'webp' | 'ico' | 'svg';

export const imageContentTypes: Record<ImageType, string> = {
  png: 'image/png',
  webp: 'image/webp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
};

/** What each slot accepts, and how large. */
export const imageSlots: Record<ImageSlot, { types: ImageType[]; maxBytes: number }> = {
  logo: { types: ['svg', 'png', 'webp'], maxBytes: 256 * 1024 },
  favicon: { types: ['ico', 'png', 'svg', 'webp'], maxBytes: 64 * 1024 },
  // The page's background takes what the logo takes (docs/configuration.md, Theme).
  background: { types: ['svg', 'png', 'webp'], maxBytes: 256 * 1024 },
};

/** Content types an upload may declare (image/vnd.microsoft.icon is ICO's registered name). */
export const uploadContentTypes: Record<string, ImageType> = {
  'image/png': 'png',
  'image/webp': 'webp',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/svg+xml': 'svg',
};

function isPng(bytes: Buffer): boolean {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return (
    bytes.length > 24 && bytes.subarray(0, 8).equals(signature) && bytes.toString('latin1', 12, 16) === 'IHDR'
  );
}

function isWebp(bytes: Buffer): boolean {
  return (
    bytes.length > 16 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP' &&
    bytes.readUInt32LE(4) + 8 === bytes.length &&
    ['VP8 ', 'VP8L', 'VP8X'].includes(bytes.toString('latin1', 12, 16))
  );
}

/** An ICO directory whose every entry lies inside the file. */
function isIco(bytes: Buffer): boolean {
  if (bytes.length < 22 || bytes.readUInt16LE(0) !== 0 || bytes.readUInt16LE(2) !== 1) return false;
  const count = bytes.readUInt16LE(4);
  if (count < 1 || 6 + 16 * count > bytes.length) return false;
  for (let index = 0; index < count; index++) {
    const entry = 6 + 16 * index;
    const size = bytes.readUInt32LE(entry + 8);
    const offset = bytes.readUInt32LE(entry + 12);
    if (size === 0 || offset < 6 + 16 * count || offset + size > bytes.length) return false;
  }
  return true;
}

/**
 * The image as it will be served: raster images exactly as uploaded once their content is
 * what the declared type says; SVG rebuilt by the sanitiser. Refuses (admin.image_invalid)
 * anything else.
 */
export function checkImage(slot: ImageSlot, declared: ImageType, bytes: Buffer): Buffer {
  const rules = imageSlots[slot];
  if (!rules.types.includes(declared)) {
    throw new AppError(adminErrors.imageInvalid, {
      fields: {
        contentType: `a ${slot} is one of ${rules.types.map((type) => imageContentTypes[type]).join(', ')}`,
      },
    });
  }
  if (bytes.length > rules.maxBytes)
    throw new AppError(adminErrors.imageTooLarge, { fields: { maxBytes: String(rules.maxBytes) } });
  const matches = { png: isPng, webp: isWebp, ico: isIco, svg: () => true }[declared](bytes);
  if (!matches) {
    throw new AppError(adminErrors.imageInvalid, {
      fields: { body: `the content is not ${imageContentTypes[declared]}` },
    });
  }
  if (declared !== 'svg') return bytes;
  try {
    return Buffer.from(sanitizeSvg(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), 'utf8');
  } catch (error) {
    const reason = error instanceof SvgRejected ? error.message : 'the SVG is not UTF-8 text';
    throw new AppError(adminErrors.imageInvalid, { fields: { body: reason }, cause: error });
  }
}

/** Stores a checked image; answers the path it is served at (on every host). */
export async function storeImage(
  db: Kysely<Database>,
  tenantCode: string,
  type: ImageType,
  bytes: Buffer,
  now: number,
): Promise<string> {
  const id = createHash('sha256').update(bytes).digest('hex');
  await db
    .insertInto('tenant_assets')
    .values({
      tenant_code: tenantCode,
      id,
      content_type: imageContentTypes[type],
      content: bytes.toString('base64'),
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['tenant_code', 'id']).doNothing())
    .execute();
  return `/_keycard/assets/${tenantCode}/${id}.${type}`;
}

export async function loadImage(db: Kysely<Database>, tenantCode: string, id: string) {
  const row = await db
    .selectFrom('tenant_assets')
    .select(['content_type', 'content'])
    .where('tenant_code', '=', tenantCode)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { contentType: row.content_type, bytes: Buffer.from(row.content, 'base64') } : null;
}
