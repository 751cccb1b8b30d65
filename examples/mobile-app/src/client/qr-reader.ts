// jsqr is CommonJS typed as an ES module: TypeScript sees the default import as the module,
// whose `default` is the decoder; at run time module.exports.default is the decoder too.
import jsqr from 'jsqr';

/** The text of the first QR code in an image, or null. */
function decodeImageData(image: ImageData): string | null {
  return (
    jsqr.default(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null
  );
}

function drawToImageData(source: CanvasImageSource, width: number, height: number): ImageData {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('This browser cannot draw images');
  // The portal's QR is an SVG on a transparent background: give it the white a camera would see.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.drawImage(source, 0, 0, width, height);
  return context.getImageData(0, 0, width, height);
}

/** Reads a QR code from an image file (a screenshot or photo of the portal's code; PNG, JPEG or SVG). */
export async function readQrFromFile(file: File): Promise<string | null> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    // SVGs may report no intrinsic size; draw them big enough for the finder patterns.
    const width = image.naturalWidth || 600;
    const height = image.naturalHeight || 600;
    const scale = Math.max(1, 600 / Math.max(width, height));
    return decodeImageData(drawToImageData(image, Math.round(width * scale), Math.round(height * scale)));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Scans camera frames until a QR code shows up; `stop()` ends it and releases the camera. */
export async function scanWithCamera(
  video: HTMLVideoElement,
  onFound: (text: string) => void,
): Promise<{ stop(): void }> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment' },
    audio: false,
  });
  video.srcObject = stream;
  await video.play();
  let running = true;
  const stop = () => {
    running = false;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  const tick = () => {
    if (!running) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0) {
      const text = decodeImageData(drawToImageData(video, video.videoWidth, video.videoHeight));
      if (text) {
        stop();
        onFound(text);
        return;
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return { stop };
}
