import sharp from "sharp";

/** Real image bytes, made on the spot. */
export async function pngBytes(width = 640, height = 360, color = "#2a9d8f"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export async function jpegBytes(width = 640, height = 360): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#e76f51" } })
    .jpeg()
    .toBuffer();
}

/** The first bytes of an MP4 ("ftyp" box) followed by filler: enough for a check by content. */
export function mp4Bytes(size = 4096): Buffer {
  const buffer = Buffer.alloc(size);
  buffer.writeUInt32BE(24, 0);
  buffer.write("ftypisom", 4, "latin1");
  return buffer;
}

export function webmBytes(size = 4096): Buffer {
  const buffer = Buffer.alloc(size);
  buffer.writeUInt32BE(0x1a45dfa3, 0);
  return buffer;
}

/** A Windows executable's header, to be renamed .jpg by a test. */
export function exeBytes(): Buffer {
  const buffer = Buffer.alloc(1024);
  buffer.write("MZ", 0, "latin1");
  return buffer;
}
