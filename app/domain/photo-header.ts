// Image headers read without decoding (pure; shared by the upload check and its tests).

export type PhotoType = "image/jpeg" | "image/png" | "image/webp";

/** The image type from the file's first bytes (the name and the browser's type are not trusted). */
export function sniffPhotoType(b: Uint8Array): PhotoType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return "image/png";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "image/webp";
  return null;
}

export function ascii(b: Uint8Array, at: number, n: number) {
  return String.fromCharCode(...b.subarray(at, at + n));
}

/** Width and height from the header, without decoding; null when the header is not there. */
export function photoDimensions(b: Uint8Array, type: PhotoType): { width: number; height: number } | null {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (type === "image/png") {
    if (b.length < 24 || ascii(b, 12, 4) !== "IHDR") return null;
    return { width: v.getUint32(16), height: v.getUint32(20) };
  }
  if (type === "image/webp") {
    if (b.length < 30) return null;
    const chunk = ascii(b, 12, 4);
    if (chunk === "VP8X")
      return { width: 1 + (b[24] | (b[25] << 8) | (b[26] << 16)), height: 1 + (b[27] | (b[28] << 8) | (b[29] << 16)) };
    if (chunk === "VP8 ") return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
    if (chunk === "VP8L") {
      const bits = v.getUint32(21, true);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    return null;
  }
  // JPEG: walk the marker segments to the first start-of-frame.
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { width: v.getUint16(i + 7), height: v.getUint16(i + 5) };
    if (marker === 0xd9 || marker === 0xda) return null;
    i += 2 + v.getUint16(i + 2);
  }
  return null;
}
