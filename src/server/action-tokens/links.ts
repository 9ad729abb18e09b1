// The address an e-mailed token is sent in (tokens.ts): the app's page that spends it.
import type { TokenPurpose } from './tokens';

/** The link a person follows: /rp for a reset, /register for an activation. */
export function actionLink(base: string, purpose: TokenPurpose, token: string): string {
  return `${base}/${purpose === 'reset' ? 'rp' : 'register'}?token=${encodeURIComponent(token)}`;
}
