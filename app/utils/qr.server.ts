import { encode } from "uqr";

/**
 * A QR code as one SVG path ("M x y h1 v1 h-1 z" per dark module), computed on the server
 * so the page needs no script and no external service; React renders the <path>.
 */
export function qrPath(text: string): { size: number; d: string } {
  const { data, size } = encode(text, { ecc: "M", border: 2 });
  let d = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (data[y][x]) d += `M${x} ${y}h1v1h-1z`;
  }
  return { size, d };
}
