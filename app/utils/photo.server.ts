// Profile photo processing: sniff the type from the bytes, check the dimensions in the
// header before decoding (a small file can declare a huge canvas), decode with the
// @jsquash codecs (WASM, run inside the Worker), centre-crop to a square, scale to
// AVATAR_SIZE and re-encode as a baseline JPEG. Only pixels survive the round trip: no
// EXIF (GPS, camera, time), no ICC or XMP, no text chunks. See docs/decisions/0011-profile-photos.md.
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode.js";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode.js";
import decodePng, { init as initPngDecode } from "@jsquash/png/decode.js";
import decodeWebp, { init as initWebpDecode } from "@jsquash/webp/decode.js";
// The Worker cannot fetch or compile WASM at run time: the modules are bundled as
// compiled WebAssembly.Module imports (wrangler and vitest-pool-workers both load
// `.wasm` imports that way; vite.config.ts leaves them for wrangler to bundle).
import JPEG_DEC_WASM from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import JPEG_ENC_WASM from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
// @ts-expect-error The package types this file as the instantiated exports; imported, it is the module.
import PNG_WASM from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm";
import WEBP_DEC_WASM from "@jsquash/webp/codec/dec/webp_dec.wasm";
import { ascii, photoDimensions, sniffPhotoType } from "../domain/photo-header";
import { squareThumbnail, type Pixels } from "../domain/photo-square";

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** Decoded RGBA costs 4 bytes a pixel inside a 128 MB isolate: 12 MP is a phone photo. */
export const MAX_PHOTO_PIXELS = 12_000_000;
export const AVATAR_SIZE = 256;

export class PhotoError extends Error {
  constructor(
    message: string,
    readonly kind: "too-big" | "unsupported" | "not-image" | "too-many-pixels",
  ) {
    super(message);
  }
}

export const PHOTO_MESSAGES = {
  tooBig: "The photo is larger than 5 MB. Choose a smaller photo.",
  unsupported: "Only JPEG, PNG or WebP photos are accepted.",
  notImage: "That file is not a photo we can read. Choose a JPEG, PNG or WebP image.",
  tooManyPixels: "The photo is more than 12 megapixels. Choose a smaller photo.",
  missing: "Choose a photo to upload.",
} as const;

let ready: Promise<unknown> | null = null;
function initCodecs() {
  // The codecs' own polyfill looks for a Workers global that tests do not always show.
  if (!("ImageData" in globalThis)) {
    (globalThis as Record<string, unknown>).ImageData = class ImageData {
      constructor(
        readonly data: Uint8ClampedArray,
        readonly width: number,
        readonly height: number,
      ) {}
    };
  }
  ready ??= Promise.all([
    initJpegDecode(JPEG_DEC_WASM),
    initJpegEncode(JPEG_ENC_WASM),
    initPngDecode(PNG_WASM),
    initWebpDecode(WEBP_DEC_WASM),
  ]).catch((e) => {
    ready = null;
    throw e;
  });
  return ready;
}

/**
 * Checks an uploaded file and returns the avatar to store: a AVATAR_SIZE square baseline
 * JPEG made from the decoded pixels only. Throws PhotoError with a message for the user.
 */
export async function processPhoto(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (bytes.byteLength > MAX_PHOTO_BYTES) throw new PhotoError(PHOTO_MESSAGES.tooBig, "too-big");
  const type = sniffPhotoType(bytes);
  if (!type) {
    // A GIF, HEIC, PDF, text... anything without one of the three signatures.
    throw new PhotoError(
      looksLikeOtherImage(bytes) ? PHOTO_MESSAGES.unsupported : PHOTO_MESSAGES.notImage,
      looksLikeOtherImage(bytes) ? "unsupported" : "not-image",
    );
  }
  const dims = photoDimensions(bytes, type);
  if (!dims || dims.width < 1 || dims.height < 1) throw new PhotoError(PHOTO_MESSAGES.notImage, "not-image");
  if (dims.width * dims.height > MAX_PHOTO_PIXELS)
    throw new PhotoError(PHOTO_MESSAGES.tooManyPixels, "too-many-pixels");
  await initCodecs();
  let decoded: Pixels;
  try {
    const buffer = bytes.slice().buffer;
    decoded =
      type === "image/jpeg"
        ? await decodeJpeg(buffer)
        : type === "image/png"
          ? await decodePng(buffer)
          : await decodeWebp(buffer);
  } catch {
    throw new PhotoError(PHOTO_MESSAGES.notImage, "not-image");
  }
  if (!decoded || decoded.width < 1 || decoded.height < 1 || decoded.width * decoded.height > MAX_PHOTO_PIXELS) {
    throw new PhotoError(PHOTO_MESSAGES.notImage, "not-image");
  }
  const pixels = squareThumbnail(decoded, AVATAR_SIZE);
  const jpeg = await encodeJpeg(new ImageData(pixels, AVATAR_SIZE, AVATAR_SIZE), { quality: 82 });
  return new Uint8Array(jpeg);
}

/** GIF, BMP, TIFF, HEIC/AVIF: an image, but not a type we take (a clearer message). */
function looksLikeOtherImage(b: Uint8Array) {
  const head = ascii(b, 0, Math.min(b.length, 12));
  return (
    head.startsWith("GIF8") ||
    head.startsWith("BM") ||
    head.startsWith("II*") ||
    head.startsWith("MM\u0000*") ||
    (b.length >= 12 && ascii(b, 4, 4) === "ftyp")
  );
}

/** The content address of a stored avatar: the first 16 hex digits of its SHA-256. */
export async function photoVersion(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest.subarray(0, 8)].map((x) => x.toString(16).padStart(2, "0")).join("");
}
