/** The assets feature's public face: what other features and the surfaces may use. */
export {
  checkImage,
  imageContentTypes,
  imageSlots,
  loadImage,
  storeImage,
  uploadContentTypes,
} from './assets.service.ts';
