// The redirect helper of spec §2.2: send the user to a target path with `continue` holding the current
// path and query string, and come back to it afterwards (used when a signed-out user opens a deep link).
export const CONTINUE_PARAM = 'continue';

export function continueSearch(location: { pathname: string; searchStr?: string }): Record<string, string> {
  const here = `${location.pathname}${location.searchStr ?? ''}`;
  return here === '/' ? {} : { [CONTINUE_PARAM]: here };
}

/** Only same-origin paths are followed, so a crafted link cannot send the user elsewhere. */
export function safeContinue(value: unknown): string | undefined {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\')
  )
    return undefined;
  return value;
}
