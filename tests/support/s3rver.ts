import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { s3Client } from "~/server/media/s3-storage.server";
import type { S3Settings } from "~/server/platform/config.server";

/** s3rver's only keys: it checks every request's signature against them. */
const KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export type TestBucket = {
  settings: S3Settings;
  /** The MEDIA_S3_* variables that point a server at this bucket. */
  env: Record<string, string>;
  client: S3Client;
  /** Every key in the bucket, sorted. */
  keys: () => Promise<string[]>;
  /** An object's bytes as the bucket holds them (not through our driver). */
  bytes: (key: string) => Promise<Buffer>;
  stop: () => Promise<void>;
};

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A real S3-compatible server (s3rver) on a free local port, over a fresh folder, with one empty bucket. */
export async function startTestBucket(bucket = "akhbar-media"): Promise<TestBucket> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const settings: S3Settings = { bucket, region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, ...KEYS };
  const client = s3Client(settings);
  return {
    settings,
    env: {
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: settings.endpoint!,
      MEDIA_S3_REGION: settings.region,
      MEDIA_S3_ACCESS_KEY_ID: KEYS.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
    },
    client,
    keys: async () => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    bytes: async (key) => {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    stop: async () => {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
