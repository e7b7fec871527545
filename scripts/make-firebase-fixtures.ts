/**
 * A realistic Firebase project export for the import's tests, written into a folder:
 *   npm run fixtures:firebase -- <folder>
 * Firestore in both JSON layouts, an Auth export whose hashes are Firebase's scrypt with known
 * parameters, the project's hash config and a local copy of the Storage bucket. Made at test time, so
 * no binary is committed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { firebaseScryptHash, type FirebaseHashConfig } from "../app/server/accounts/firebase-scrypt.server";

const BUCKET = "akhbar-original.appspot.com";
const HASH_CONFIG = {
  algorithm: "SCRYPT",
  base64_signer_key: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  base64_salt_separator: "Bw==",
  rounds: 8,
  mem_cost: 14,
};

const downloadUrl = (objectPath: string) =>
  `https://firebasestorage.googleapis.com/v0/b/${BUCKET}/o/${encodeURIComponent(objectPath)}?alt=media&token=0f8e4b2c-1d3a-4c5b-9e6f-7a8b9c0d1e2f`;
const publicUrl = (objectPath: string) => `https://storage.googleapis.com/${BUCKET}/${objectPath}`;

/** What the tests look for after importing the fixtures. */
export const FIXTURE = {
  bucket: BUCKET,
  siteVisits: 48213,
  /** An article with two images in the bucket and its short link. */
  withImages: { id: "Qm3xT9aLk2VbR7wYp0Zd", shortId: "482915", title: "افتتاح مكتبة عامة جديدة في وسط البلدة" },
  /** An article with the legacy single imageUrl, in the bucket. */
  withImageUrl: { id: "Hh7Ud2Kq8NsWc4Ej1Lfo", shortId: "731046" },
  withVideo: { id: "Vd5Gp1Rt6YbMn3Xs8Ckq" },
  /** An image the bucket copy does not hold: the URL stays. */
  withMissingImage: { id: "Mz0Ws4Ny7QeHd2Lu9Bra", missingUrl: downloadUrl("news-images/1690000000000-missing.jpg") },
  educatonal: { id: "Ed8Fz3Lc6PtJk1Ua5Rwn", title: "نتائج الامتحانات الرسمية للشهادة المتوسطة" },
  malformed: { id: "Bad0000000000000000a" },
  legacyMatched: { id: "Lg1Mt4Ch7Ed0000000aa", matches: "Qm3xT9aLk2VbR7wYp0Zd" },
  legacyPublished: { id: "Lg2Pb5Xn8Qr1Sz4Tv7Wa", title: "بلدية البلدة تعلن عن أشغال صيانة الطرقات" },
  legacyDraft: { id: "Lg3Dr6Yo9Kp2Hs5Jm8Nb", title: "مسودة قديمة عن مهرجان الصيف" },
  reader: {
    uid: "rdR3aD3rUiD0000000000001",
    email: "reader@akhbar.test",
    username: "قارئ البلدة",
    password: "قراءة-2024-secret",
  },
  admin: {
    uid: "adM1nUiD0000000000000002",
    email: "editor-in-chief@akhbar.test",
    username: "رئيس التحرير",
    password: "admin-pass-789",
  },
  google: { uid: "gO0gLeUiD000000000000003", email: "google.reader@akhbar.test", username: "قارئة من غوغل" },
} as const;

type Doc = Record<string, unknown>;
const at = (iso: string) => new Date(iso);

/** The project's documents, with Dates for Timestamps; each layout writes them its own way. */
function collections(): Record<string, Record<string, Doc>> {
  const article = (title: string, category: string, createdAt: string, extra: Doc = {}): Doc => ({
    title,
    content: `${title}.\nتفاصيل الخبر في فقرته الأولى، كما نشرها موقع الأخبار المحلي.\nوفي الفقرة الثانية مزيد من التفاصيل عن الحدث وأهله.`,
    category,
    images: [],
    video: "",
    isVideo: false,
    visits: 17,
    createdAt: at(createdAt),
    ...extra,
  });
  return {
    "all-news": {
      [FIXTURE.withImages.id]: article(FIXTURE.withImages.title, "local", "2024-03-02T09:15:00Z", {
        images: [
          downloadUrl("news-images/1709370900000-library.jpg"),
          downloadUrl("news-images/1709370900001-reading room.png"),
        ],
        visits: 912,
        updatedAt: at("2024-03-03T10:00:00Z"),
      }),
      [FIXTURE.withImageUrl.id]: article(
        "قمة دولية حول المناخ تختتم أعمالها",
        "international",
        "2024-02-10T14:00:00Z",
        {
          imageUrl: publicUrl("news-images/1707573600000-summit.jpg"),
        },
      ),
      [FIXTURE.educatonal.id]: article(FIXTURE.educatonal.title, "educatonal", "2024-01-20T08:00:00Z"),
      Sp4Rt7Nw0Gm3Fc6Hb9Jq: article("فوز فريق البلدة ببطولة كرة القدم", "sports", "2024-01-15T18:30:00Z"),
      [FIXTURE.withVideo.id]: article("جولة مصورة في سوق البلدة القديم", "miscellaneous", "2024-01-05T12:00:00Z", {
        video: downloadUrl("news-videos/1704456000000-souk.mp4"),
        isVideo: true,
      }),
      Br3Kn6Ws9Ur2Gt5Nq8Xa: article("عاجل: انقطاع الكهرباء عن أحياء البلدة", "breaking", "2024-03-05T06:45:00Z"),
      Ad7Vt0Rs3Mn6Bx9Kc2Pe: article("إعلان: افتتاح فرع جديد لمصرف البلدة", "advertisement", "2023-12-01T10:00:00Z"),
      [FIXTURE.withMissingImage.id]: article("معرض للحرف اليدوية في ساحة البلدة", "local", "2023-11-11T11:00:00Z", {
        images: [FIXTURE.withMissingImage.missingUrl],
      }),
      [FIXTURE.malformed.id]: { content: "خبر بلا عنوان", category: "local", createdAt: at("2023-10-01T00:00:00Z") },
    },
    news: {
      [FIXTURE.legacyMatched.id]: {
        title: ` ${FIXTURE.withImages.title} `,
        published: true,
        date: at("2024-03-02T09:00:00Z"),
      },
      [FIXTURE.legacyPublished.id]: {
        title: FIXTURE.legacyPublished.title,
        published: true,
        date: at("2023-09-01T07:00:00Z"),
      },
      [FIXTURE.legacyDraft.id]: {
        title: FIXTURE.legacyDraft.title,
        published: false,
        date: at("2023-08-01T07:00:00Z"),
      },
    },
    "short-links": {
      sl1AbCdEfGhIjKlMnOpQ: {
        shortId: FIXTURE.withImages.shortId,
        longUrl: `/news/${FIXTURE.withImages.id}`,
        createdAt: at("2024-03-02T09:15:01Z"),
      },
      sl2AbCdEfGhIjKlMnOpQ: {
        shortId: FIXTURE.withImageUrl.shortId,
        longUrl: `/news/${FIXTURE.withImageUrl.id}`,
        createdAt: at("2024-02-10T14:00:01Z"),
      },
      sl3AbCdEfGhIjKlMnOpQ: { shortId: "12ab", longUrl: `/news/${FIXTURE.educatonal.id}` },
    },
    users: {
      [FIXTURE.reader.uid]: { username: FIXTURE.reader.username, email: FIXTURE.reader.email, role: "user" },
      [FIXTURE.admin.uid]: { username: FIXTURE.admin.username, email: FIXTURE.admin.email, role: "admin" },
      [FIXTURE.google.uid]: { username: FIXTURE.google.username, email: FIXTURE.google.email, role: "user" },
    },
    visits: { siteStats: { totalVisits: FIXTURE.siteVisits } },
  };
}

/** The firestore-export-import layout: Timestamps as {_seconds, _nanoseconds}. */
function exportImportLayout(value: unknown): unknown {
  if (value instanceof Date)
    return { _seconds: Math.floor(value.getTime() / 1000), _nanoseconds: (value.getTime() % 1000) * 1e6 };
  if (Array.isArray(value)) return value.map(exportImportLayout);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, exportImportLayout(v)]));
  return value;
}

/** The node-firestore-import-export layout: __collections__, values tagged with __datatype__. */
function taggedValue(value: unknown): unknown {
  if (value instanceof Date)
    return {
      __datatype__: "timestamp",
      value: { _seconds: Math.floor(value.getTime() / 1000), _nanoseconds: (value.getTime() % 1000) * 1e6 },
    };
  if (Array.isArray(value)) return value.map(taggedValue);
  return value;
}

function taggedLayout(all: Record<string, Record<string, Doc>>): unknown {
  const tagged = Object.fromEntries(
    Object.entries(all).map(([name, docs]) => [
      name,
      Object.fromEntries(
        Object.entries(docs).map(([id, doc]) => [
          id,
          { ...Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, taggedValue(v)])), __collections__: {} },
        ]),
      ),
    ]),
  );
  return { __collections__: tagged };
}

async function authUser(
  uid: string,
  email: string,
  password: string | null,
  config: FirebaseHashConfig,
  saltSeed: number,
): Promise<Doc> {
  const base: Doc = {
    localId: uid,
    email,
    emailVerified: true,
    createdAt: "1700000000000",
    lastSignedInAt: "1709000000000",
  };
  if (password === null)
    return { ...base, providerUserInfo: [{ providerId: "google.com", rawId: "1098765432", email }] };
  const salt = Buffer.from(Array.from({ length: 10 }, (_, i) => (saltSeed * 31 + i * 7) % 256));
  const hash = await firebaseScryptHash(password, salt, config);
  return {
    ...base,
    passwordHash: hash.toString("base64"),
    salt: salt.toString("base64"),
    providerUserInfo: [{ providerId: "password", rawId: email, email }],
  };
}

/** A minimal MP4 file: what the video check reads is its `ftyp` box. */
function mp4Bytes(): Buffer {
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isomiso2")]);
  return Buffer.concat([ftyp, Buffer.alloc(256, 0)]);
}

export type FirebaseFixtures = {
  firestoreA: string;
  firestoreB: string;
  auth: string;
  hashConfig: string;
  storage: string;
};

export async function makeFirebaseFixtures(dir: string): Promise<FirebaseFixtures> {
  mkdirSync(dir, { recursive: true });
  const all = collections();
  const paths: FirebaseFixtures = {
    firestoreA: path.join(dir, "firestore-export-import.json"),
    firestoreB: path.join(dir, "node-firestore-import-export.json"),
    auth: path.join(dir, "users.json"),
    hashConfig: path.join(dir, "hash-config.json"),
    storage: path.join(dir, "bucket"),
  };
  writeFileSync(paths.firestoreA, JSON.stringify(exportImportLayout(all), null, 2));
  writeFileSync(paths.firestoreB, JSON.stringify(taggedLayout(all), null, 2));
  writeFileSync(paths.hashConfig, JSON.stringify(HASH_CONFIG, null, 2));
  const config: FirebaseHashConfig = {
    signerKey: Buffer.from(HASH_CONFIG.base64_signer_key, "base64"),
    saltSeparator: Buffer.from(HASH_CONFIG.base64_salt_separator, "base64"),
    rounds: HASH_CONFIG.rounds,
    memCost: HASH_CONFIG.mem_cost,
  };
  const users = [
    await authUser(FIXTURE.reader.uid, FIXTURE.reader.email, FIXTURE.reader.password, config, 1),
    await authUser(FIXTURE.admin.uid, FIXTURE.admin.email, FIXTURE.admin.password, config, 2),
    await authUser(FIXTURE.google.uid, FIXTURE.google.email, null, config, 3),
    { localId: "noEmailUid", emailVerified: false },
  ];
  writeFileSync(paths.auth, JSON.stringify({ users }, null, 2));
  // gsutil -m cp -r gs://<bucket> <folder> puts the objects under <folder>/<bucket>/.
  const bucket = path.join(paths.storage, BUCKET);
  mkdirSync(path.join(bucket, "news-images"), { recursive: true });
  mkdirSync(path.join(bucket, "news-videos"), { recursive: true });
  const image = (r: number, g: number, b: number) =>
    sharp({ create: { width: 1400, height: 900, channels: 3, background: { r, g, b } } });
  await image(200, 80, 40).jpeg().toFile(path.join(bucket, "news-images/1709370900000-library.jpg"));
  await image(30, 110, 170).png().toFile(path.join(bucket, "news-images/1709370900001-reading room.png"));
  await image(60, 150, 70).jpeg().toFile(path.join(bucket, "news-images/1707573600000-summit.jpg"));
  writeFileSync(path.join(bucket, "news-videos/1704456000000-souk.mp4"), mp4Bytes());
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("Usage: npm run fixtures:firebase -- <folder>");
    process.exit(1);
  }
  const paths = await makeFirebaseFixtures(dir);
  console.log(
    Object.entries(paths)
      .map(([name, file]) => `${name}: ${file}`)
      .join("\n"),
  );
}
