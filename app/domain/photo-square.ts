// The avatar's geometry (pure; unit-tested without the codecs).

export type Pixels = { data: Uint8ClampedArray | Uint8Array; width: number; height: number };

/**
 * The centre square of `src`, scaled to size x size by area averaging (each output pixel
 * is the mean of the source pixels it covers; good for the large reductions a profile
 * photo needs), composited over white (JPEG has no transparency).
 */
export function squareThumbnail(src: Pixels, size: number): Uint8ClampedArray<ArrayBuffer> {
  const side = Math.min(src.width, src.height);
  const x0 = Math.floor((src.width - side) / 2);
  const y0 = Math.floor((src.height - side) / 2);
  const scale = side / size;
  const out = new Uint8ClampedArray(new ArrayBuffer(size * size * 4));
  const acc = new Float64Array(4);
  for (let oy = 0; oy < size; oy++) {
    const sy0 = oy * scale;
    const sy1 = sy0 + scale;
    for (let ox = 0; ox < size; ox++) {
      const sx0 = ox * scale;
      const sx1 = sx0 + scale;
      acc.fill(0);
      let total = 0;
      for (let sy = Math.floor(sy0); sy < Math.min(Math.ceil(sy1), side); sy++) {
        const wy = Math.min(sy + 1, sy1) - Math.max(sy, sy0);
        const row = ((y0 + sy) * src.width + x0) * 4;
        for (let sx = Math.floor(sx0); sx < Math.min(Math.ceil(sx1), side); sx++) {
          const w = wy * (Math.min(sx + 1, sx1) - Math.max(sx, sx0));
          const p = row + sx * 4;
          const a = (src.data[p + 3] / 255) * w;
          acc[0] += src.data[p] * a;
          acc[1] += src.data[p + 1] * a;
          acc[2] += src.data[p + 2] * a;
          acc[3] += a;
          total += w;
        }
      }
      const o = (oy * size + ox) * 4;
      const white = 255 * (total - acc[3]);
      out[o] = (acc[0] + white) / total;
      out[o + 1] = (acc[1] + white) / total;
      out[o + 2] = (acc[2] + white) / total;
      out[o + 3] = 255;
    }
  }
  return out;
}
