// Upload limits from the environment (they are the uploads' own, so they live beside them):
//   UPLOAD_MAX_BYTES        largest file accepted (default 200 GiB)
//   UPLOAD_EXPIRY_HOURS     an unfinished upload's bytes are removed this long after it began (default 168 = 7 days)
//   UPLOAD_CLEANUP_MINUTES  how often the expire-uploads job looks for abandoned uploads (default 15; 0: never)

export interface UploadSettings {
  maxBytes: number;
  expiryMs: number;
  cleanupMs: number;
}

const positive = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  return n;
};

export function uploadSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): UploadSettings {
  return {
    maxBytes: positive(env.UPLOAD_MAX_BYTES, 200 * 1024 ** 3, 'UPLOAD_MAX_BYTES'),
    expiryMs: positive(env.UPLOAD_EXPIRY_HOURS, 168, 'UPLOAD_EXPIRY_HOURS') * 3_600_000,
    cleanupMs: positive(env.UPLOAD_CLEANUP_MINUTES, 15, 'UPLOAD_CLEANUP_MINUTES') * 60_000,
  };
}

/** "200 GiB": the size limit as the refusal names it. */
export function describeBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1 && Number.isInteger(n / 1024)) {
    n /= 1024;
    i++;
  }
  return `${n} ${units[i]}`;
}
