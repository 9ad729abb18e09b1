// Requests of the mail calls (spec §7): the bug report of the Report Issue dialog (§2.10, §5) and the
// request for a change of one's permissions.
import { z } from 'zod';
import { REPORT_MESSAGE_MAX } from './constants';
import { Report } from './messages';
import { PolicyName } from './organizations';

/** §5: 1 to 2000 characters; a message of spaces only counts as empty. */
export const ReportMessage = z
  .string({ message: Report.tooShort })
  .refine((m) => m.trim().length >= 1, Report.tooShort)
  .refine((m) => m.length <= REPORT_MESSAGE_MAX, `Message is at most ${REPORT_MESSAGE_MAX} characters long`);

export const SendBugsBody = z.object({ message: ReportMessage });
export type SendBugsBody = z.input<typeof SendBugsBody>;

export const RequestChangeBody = z.object({
  message: ReportMessage,
  /** The policies asked for; kept on the user as requestedPolicies for administrators to see. */
  policies: z.array(PolicyName).max(50).optional(),
});
export type RequestChangeBody = z.input<typeof RequestChangeBody>;

export const MailText = {
  bugSubject: (name: string) => `Tessera bug report from ${name}`,
  changeSubject: (name: string) => `Tessera permission request from ${name}`,
} as const;
