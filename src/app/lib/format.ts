// Small display helpers: monograms and dates as the spec shows them (§9: MM/dd/yyyy, study card M/D/YYYY).

export function initials(name: string): string {
  const parts = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** MM/dd/yyyy */
export function formatDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
}

/** M/D/YYYY, as on study cards */
export function formatShortDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`;
}

/** File names in the downloads list are truncated after 28 characters (§2.4, §9). */
export function truncateName(name: string, max = 28): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}
