// A user's search text as an ILIKE pattern: `%`, `_` and `\` are matched literally, not as wildcards.
export function likePattern(text: string): string {
  return `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
