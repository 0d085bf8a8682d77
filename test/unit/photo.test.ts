import { describe, expect, it } from "vitest";
import { photoDimensions, sniffPhotoType } from "~/domain/photo-header";
import { squareThumbnail } from "~/domain/photo-square";

const RED = [220, 30, 30, 255];
const BLUE = [30, 30, 220, 255];

/** width x height, each pixel from `at(x, y)`. */
function image(width: number, height: number, at: (x: number, y: number) => number[]) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(at(x, y), (y * width + x) * 4);
  return { data, width, height };
}
const pixel = (out: Uint8ClampedArray, size: number, x: number, y: number) => [
  ...out.subarray((y * size + x) * 4, (y * size + x) * 4 + 4),
];

describe("squareThumbnail", () => {
  it("keeps the centre square of a wide picture and drops the sides", () => {
    // 8x2, green at the sides: the centre square is columns 3 (red) and 4 (blue).
    const src = image(8, 2, (x) => (x < 3 || x > 4 ? [0, 200, 0, 255] : x === 3 ? RED : BLUE));
    const out = squareThumbnail(src, 2);
    expect(pixel(out, 2, 0, 0)).toEqual(RED);
    expect(pixel(out, 2, 1, 1)).toEqual(BLUE);
  });

  it("averages the area each output pixel covers when scaling down", () => {
    const src = image(4, 4, (x) => (x < 2 ? [0, 0, 0, 255] : [200, 100, 50, 255]));
    const out = squareThumbnail(src, 1);
    expect(pixel(out, 1, 0, 0)).toEqual([100, 50, 25, 255]);
  });

  it("scales up a tiny picture and puts transparency over white", () => {
    const out = squareThumbnail(
      image(1, 1, () => [0, 0, 0, 0]),
      4,
    );
    for (let i = 0; i < 16; i++) expect([...out.subarray(i * 4, i * 4 + 4)]).toEqual([255, 255, 255, 255]);
    const half = squareThumbnail(
      image(1, 1, () => [0, 0, 0, 128]),
      2,
    );
    expect(pixel(half, 2, 1, 1)).toEqual([127, 127, 127, 255]);
  });
});

describe("photo headers", () => {
  it("tells the three accepted types by their bytes, not their names", () => {
    expect(sniffPhotoType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffPhotoType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("image/png");
    expect(sniffPhotoType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffPhotoType(new TextEncoder().encode("GIF89a"))).toBeNull();
    expect(sniffPhotoType(new TextEncoder().encode("hello.jpg"))).toBeNull();
  });

  it("reads PNG dimensions from IHDR and gives up on a truncated header", () => {
    const png = new Uint8Array(24);
    png.set([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x17, 0x70, 0, 0, 0x0b,
      0xb8,
    ]);
    expect(photoDimensions(png, "image/png")).toEqual({ width: 6000, height: 3000 });
    expect(photoDimensions(png.subarray(0, 20), "image/png")).toBeNull();
  });
});
